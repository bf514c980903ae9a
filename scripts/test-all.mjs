// The README's test command: lint, typecheck, unit and API tests (SQLite and PostgreSQL), build, then
// the browser tests against the built server, once on SQLite and once on PostgreSQL. Every step runs even
// if an earlier one failed (except that browser tests need the build), and the last line sums up the tests
// of every run in the plain "N passed, N failed" form. CI keeps only the end of the output, so a failed
// step's own last lines (where vitest and Playwright say what failed) are printed again at the end.
import { spawn } from 'node:child_process';
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
const recapLines = 40;
const recaps = [];
/** Runs a step with its output passed through; keeps its last lines for the recap if it fails. */
async function step(name, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let tail = '';
  const keep = (text) => {
    tail = (tail + text).slice(-64 * 1024);
  };
  // Decoded as text by the streams, so a character split between two chunks (test titles in Chinese) stays whole.
  child.stdout.setEncoding('utf8').on('data', (c) => (process.stdout.write(c), keep(c)));
  child.stderr.setEncoding('utf8').on('data', (c) => (process.stderr.write(c), keep(c)));
  const [status, signal] = await new Promise((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
  if (status !== 0) {
    failedSteps.push(name);
    // eslint-disable-next-line no-control-regex -- colour codes out of the recap
    const lines = tail.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim() !== '');
    recaps.push(`--- ${name} (${signal ? `killed by ${signal}` : `exit ${status}`}), its last lines:\n${lines.slice(-recapLines).join('\n')}`);
  }
  return status === 0;
}

await step('lint', 'npx', ['eslint', '.']);
await step('typecheck', 'npm', ['run', 'typecheck']);
await step('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
if (await step('build', 'npm', ['run', 'build'])) {
  for (const store of e2eStores) {
    await step(`browser tests on ${store}`, 'npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts'], { E2E_DATABASE: store, E2E_JSON: e2eJson(store) });
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
for (const recap of recaps) process.stdout.write(`\n${recap}\n`);
if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps.length || failed ? 1 : 0);
