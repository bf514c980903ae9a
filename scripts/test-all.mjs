// The README's test command: lint, typecheck and build side by side, unit and API tests (SQLite and PostgreSQL), then
// the browser tests against the built server: the whole suite on SQLite and its store smoke on PostgreSQL
// (apps/web/e2e/playwright.config.ts picks the specs per store; docs/testing.md says why). Every step runs
// even if an earlier one failed (except that browser tests need the build). The summary gives each step's
// duration and vitest's 15 slowest files, and its last line sums up the tests of every run in the plain
// "N passed, N failed" form. CI keeps only the end of the output, so a failed step's own last lines (where
// vitest and Playwright say what failed) are printed again at the end.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const artifacts = 'artifacts';
mkdirSync(artifacts, { recursive: true });
const vitestJson = `${artifacts}/vitest.json`;
/** The browser suite runs once per store (E2E_DATABASE, see apps/web/e2e/e2e-env.ts): whole on SQLite, its smoke on PostgreSQL. */
const e2eStores = ['sqlite', 'postgres'];
// Absolute: Playwright resolves a relative report path against its config's folder, not this one.
const e2eJson = (store) => path.resolve(artifacts, `e2e-${store}.json`);
rmSync(vitestJson, { force: true });
for (const store of e2eStores) rmSync(e2eJson(store), { force: true });

const failedSteps = [];
/** Each step's name, outcome and wall time, for the summary. */
const timings = [];
const recapLines = 40;
const recaps = [];
/**
 * Runs a step with its output passed through (or, with `together`, held and printed whole when it ends, so steps
 * run side by side do not mix their lines); keeps its last lines for the recap if it fails.
 */
async function step(name, cmd, args, env = {}, { together = false } = {}) {
  const header = `\n=== ${name}: ${cmd} ${args.join(' ')}\n`;
  if (!together) process.stdout.write(header);
  const started = performance.now();
  const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let tail = '';
  let held = '';
  const keep = (text) => {
    tail = (tail + text).slice(-64 * 1024);
    if (together) held += text;
  };
  // Decoded as text by the streams, so a character split between two chunks (test titles in Chinese) stays whole.
  child.stdout.setEncoding('utf8').on('data', (c) => (together || process.stdout.write(c), keep(c)));
  child.stderr.setEncoding('utf8').on('data', (c) => (together || process.stderr.write(c), keep(c)));
  const [status, signal] = await new Promise((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
  if (together) process.stdout.write(header + held);
  timings.push({ name, ok: status === 0, seconds: (performance.now() - started) / 1000 });
  if (status !== 0) {
    failedSteps.push(name);
    // eslint-disable-next-line no-control-regex -- colour codes out of the recap
    const lines = tail.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => l.trim() !== '');
    recaps.push(`--- ${name} (${signal ? `killed by ${signal}` : `exit ${status}`}), its last lines:\n${lines.slice(-recapLines).join('\n')}`);
  }
  return status === 0;
}

// Lint, typecheck and build read the sources and write nothing the others read (lint ignores dist/): side by side
// they take the longest one's time on two cores instead of the three's sum (about 45 s less). The tests run
// alone after them, so no timing-sensitive test shares the machine with a compiler.
const [, , built] = await Promise.all([
  step('lint', 'npx', ['eslint', '.'], {}, { together: true }),
  step('typecheck', 'npm', ['run', 'typecheck'], {}, { together: true }),
  step('build', 'npm', ['run', 'build'], {}, { together: true }),
]);
await step('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
if (built) {
  for (const store of e2eStores) {
    await step(store === 'postgres' ? 'browser store smoke on postgres' : `browser tests on ${store}`, 'npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts'], { E2E_DATABASE: store, E2E_JSON: e2eJson(store) });
  }
}

let passed = 0;
let failed = 0;
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests;
  // A file whose setup failed has no failed test of its own (its tests never ran): it counts as one failure,
  // so the last line never says 0 failed for a red run.
  const setupFailures = v.testResults.filter((f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed')).length;
  failed += v.numFailedTests + setupFailures;
  // Where the next minute of vitest is to be won: its slowest files, setup and tests together.
  const slowest = v.testResults
    .map((f) => ({ file: path.relative(process.cwd(), f.name), seconds: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 15);
  process.stdout.write(`\nvitest's 15 slowest files:\n${slowest.map((f) => `${f.seconds.toFixed(1).padStart(7)} s  ${f.file}`).join('\n')}\n`);
}
for (const store of e2eStores) {
  if (!existsSync(e2eJson(store))) continue;
  const s = JSON.parse(readFileSync(e2eJson(store), 'utf8')).stats;
  process.stdout.write(`browser tests on ${store}: ${s.expected} passed, ${s.unexpected} failed, in ${(s.duration / 1000).toFixed(0)} s\n`);
  passed += s.expected;
  failed += s.unexpected;
}
const total = timings.reduce((sum, t) => sum + t.seconds, 0);
process.stdout.write(`\nsteps:\n${timings.map((t) => `${t.seconds.toFixed(0).padStart(6)} s  ${t.ok ? 'ok    ' : 'FAILED'}  ${t.name}`).join('\n')}\n${total.toFixed(0).padStart(6)} s  in all\n`);
for (const recap of recaps) process.stdout.write(`\n${recap}\n`);
if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps.length || failed ? 1 : 0);
