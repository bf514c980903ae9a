#!/usr/bin/env node
// Reruns the tests that measure security figures and writes their table into docs/security.md.
//
//   npm run security:figures              rerun the tests, then write the table
//   npm run security:figures -- --no-run  write the table from the figures already in artifacts/security/
//
// A test records a figure with recordFigure() (apps/server/test/security-figures.ts) as
// artifacts/security/<id>.json; this script finds those tests by that call, so a new one is picked up.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIGURES_DIR = path.join(root, 'artifacts/security');
const DOC = path.join(root, 'docs/security.md');
const START = '<!-- figures:start -->';
const END = '<!-- figures:end -->';

/** The figures docs/security.md promises, in the order of its threat model; a missing one says so. */
const EXPECTED = [
  ['authz-matrix', 'Callers reaching routes or rows that are not theirs'],
  ['api-strict-ids', 'Malformed or guessed ids in API paths'],
  ['malformed-requests', 'Malformed input crashing the API'],
  ['api-slow-headers', 'Slow request heads held open on the API port'],
  ['api-rate-limits', 'Request floods on the API'],
  ['login-many-addresses', "Guessing one account's password from many addresses"],
  ['gateway-slowloris', 'Slow handshakes held open on the proxy ports'],
  ['gateway-pending-per-ip', 'One address holding many unauthenticated proxy connections'],
  ['gateway-pending-share', 'Strangers filling the proxy ports so paying customers cannot get in'],
  ['gateway-password-guessing', 'Proxy password guessing'],
  ['gateway-concurrent-limit', 'One proxy account opening unbounded connections'],
  ['gateway-overshoot-balance', 'Traffic past the balance'],
  ['gateway-overshoot-cap', "Traffic past an account's own limit"],
  ['gateway-overshoot-tls', 'Traffic past the balance inside a TLS tunnel'],
  ['gateway-overshoot-socks', 'Traffic past the balance over SOCKS5'],
  ['gateway-shared-overshoot-balance-sqlite', 'Traffic past the balance over several gateway processes'],
  ['gateway-shared-overshoot-balance-postgres', 'Traffic past the balance over several gateway processes'],
  ['gateway-shared-overshoot-cap-sqlite', "Traffic past an account's own limit over several gateway processes"],
  ['gateway-shared-overshoot-cap-postgres', "Traffic past an account's own limit over several gateway processes"],
  ['webhook-replay', 'Replayed payment webhooks'],
  ['stripe-future-event', 'Payment events signed for a time still to come'],
  ['money-concurrency', 'Races on money operations'],
  ['shop-open-orders', 'Unpaid orders piling up'],
  ['shop-static-unpaid-holds', "Unpaid static orders holding a region's stock"],
  ['log-redaction', 'Secrets leaking into logs'],
];

/** Server test files that call recordFigure(). */
function figureTests() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.test\.tsx?$/.test(entry.name) && readFileSync(full, 'utf8').includes('recordFigure(')) out.push(path.relative(root, full));
    }
  };
  walk(path.join(root, 'apps/server'));
  return out.sort();
}

function readFigures() {
  if (!existsSync(FIGURES_DIR)) return new Map();
  const figures = new Map();
  for (const name of readdirSync(FIGURES_DIR).filter((n) => n.endsWith('.json')).sort()) {
    const figure = JSON.parse(readFileSync(path.join(FIGURES_DIR, name), 'utf8'));
    figures.set(figure.id, figure);
  }
  return figures;
}

/** One Markdown table cell: pipes escaped, lines joined. */
const cell = (text) => String(text).replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');

function table(figures) {
  const rows = ['| threat | test | figure | measured at |', '|---|---|---|---|'];
  const known = new Set(EXPECTED.map(([id]) => id));
  for (const [id, threat] of EXPECTED) {
    const f = figures.get(id);
    rows.push(f ? `| ${cell(f.threat)} | \`${cell(f.test)}\` | ${cell(f.figure)} | ${cell(f.measuredAt)} |` : `| ${cell(threat)} | — (\`${id}\`) | not measured | — |`);
  }
  for (const [id, f] of figures) if (!known.has(id)) rows.push(`| ${cell(f.threat)} | \`${cell(f.test)}\` | ${cell(f.figure)} | ${cell(f.measuredAt)} |`);
  return rows.join('\n');
}

let status = 0;
if (!process.argv.includes('--no-run')) {
  const files = figureTests();
  console.log(`Rerunning ${files.length} test files that record figures:\n  ${files.join('\n  ')}`);
  // A figure not written by this run must not pass for a current one.
  rmSync(FIGURES_DIR, { recursive: true, force: true });
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...files], { cwd: root, stdio: 'inherit' });
  status = run.status ?? 1;
  if (status !== 0) console.error('Some tests failed: their figures are missing or partial in the table.');
}

const figures = readFigures();
const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(START);
const end = doc.indexOf(END);
if (start < 0 || end < start) throw new Error(`${path.relative(root, DOC)} has no ${START} … ${END} section`);
writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${table(figures)}\n${doc.slice(end)}`);
const missing = EXPECTED.filter(([id]) => !figures.has(id)).map(([id]) => id);
console.log(`docs/security.md: ${figures.size} figures written${missing.length ? `; not measured: ${missing.join(', ')}` : ''}.`);
process.exit(status);
