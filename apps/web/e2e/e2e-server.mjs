// The e2e server: the built server on a fresh store, which is removed again when the server stops.
// SQLite: an emptied DATA_DIR. PostgreSQL (E2E_PG_DATABASE set): a new database on TEST_DATABASE_URL's server,
// created before the start and dropped once the server has exited (Playwright stops it with SIGTERM).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import pg from 'pg';

const { E2E_DATA_DIR, E2E_PG_DATABASE: E2E_DB_NAME, E2E_ADMIN_DATABASE_URL } = process.env;
if (!E2E_DATA_DIR) throw new Error('E2E_DATA_DIR is not set');
const DAY_MS = 24 * 60 * 60 * 1000;

async function onAdminDb(fn) {
  const client = new pg.Client({ connectionString: E2E_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function createDatabase(name) {
  if (!/^resi_e2e_\d+_\d+$/.test(name)) throw new Error(`unexpected e2e database name ${name}`);
  await onAdminDb(async (c) => {
    // Databases of runs that never reached their drop (a killed runner), once they are a day old.
    const { rows } = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE 'resi\\_e2e\\_%'`);
    for (const { datname } of rows) {
      const started = Number(/^resi_e2e_(\d+)_\d+$/.exec(datname)?.[1]);
      if (started && Date.now() - started > DAY_MS) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await c.query(`CREATE DATABASE "${name}"`);
  });
  const url = new URL(E2E_ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(name) {
  await onAdminDb((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

rmSync(E2E_DATA_DIR, { recursive: true, force: true });
mkdirSync(E2E_DATA_DIR, { recursive: true });
const env = { ...process.env, DATA_DIR: E2E_DATA_DIR };
delete env.DATABASE_URL;
if (E2E_DB_NAME) env.DATABASE_URL = await createDatabase(E2E_DB_NAME);

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { env, stdio: 'inherit' });
// Playwright signals the whole process group; passing the signal on as well covers a lone kill of this process.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => {
  const done = () => process.exit(code ?? (signal ? 1 : 0));
  if (!E2E_DB_NAME) return done();
  dropDatabase(E2E_DB_NAME).then(done, (error) => {
    process.stderr.write(`could not drop the e2e database ${E2E_DB_NAME}: ${error.message}\n`);
    process.exit(1);
  });
});
