// The README's test command: lint, typecheck, unit and API tests (SQLite and PostgreSQL), build, then
// the browser tests against the built server, once on SQLite and once on PostgreSQL. Every step runs even
// if an earlier one failed (except that browser tests need the build), and the last line sums up the tests
// of every run in the plain "N passed, N failed" form.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const artifacts = 'artifacts';
mkdirSync(artifacts, { recursive: true });
const vitestJson = `${artifacts}/vitest.json`;
/** The browser suite runs once per store (E2E_DATABASE, see apps/web/e2e/e2e-env.ts), each with its report. */
const e2eStores = ['sqlite', 'postgres'];
// Absolute: Playwright resolves a relative report path against its config's folder, not this one.
const e2eJson = (store) => path.resolve(artifacts, `e2e-${store}.json`);
rmSync(vitestJson, { force: true });
for (const store of e2eStores) rmSync(e2eJson(store), { force: true });

const failedSteps = [];
function step(name, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) failedSteps.push(name);
  return r.status === 0;
}

step('lint', 'npx', ['eslint', '.']);
step('typecheck', 'npm', ['run', 'typecheck']);
step('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
if (step('build', 'npm', ['run', 'build'])) {
  for (const store of e2eStores) {
    step(`browser tests on ${store}`, 'npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts'], { E2E_DATABASE: store, E2E_JSON: e2eJson(store) });
  }
}

let passed = 0;
let failed = 0;
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
}
for (const store of e2eStores) {
  if (!existsSync(e2eJson(store))) continue;
  const s = JSON.parse(readFileSync(e2eJson(store), 'utf8')).stats;
  process.stdout.write(`browser tests on ${store}: ${s.expected} passed, ${s.unexpected} failed\n`);
  passed += s.expected;
  failed += s.unexpected;
}
if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps.length || failed ? 1 : 0);
