// The README's test command: lint, typecheck, unit and API tests (SQLite and PostgreSQL), build, then
// the browser tests against the built server. Every step runs even if an earlier one failed (except
// that browser tests need the build), and the last line sums up the tests in the plain
// "N passed, N failed" form.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const artifacts = 'artifacts';
mkdirSync(artifacts, { recursive: true });
const vitestJson = `${artifacts}/vitest.json`;
const e2eJson = `${artifacts}/e2e.json`;
rmSync(vitestJson, { force: true });
rmSync(e2eJson, { force: true });

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
  step('browser tests', 'npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts'], { E2E_JSON: e2eJson });
}

let passed = 0;
let failed = 0;
if (existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
}
if (existsSync(e2eJson)) {
  const s = JSON.parse(readFileSync(e2eJson, 'utf8')).stats;
  passed += s.expected;
  failed += s.unexpected;
}
if (failedSteps.length) process.stdout.write(`\nFailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(failedSteps.length || failed ? 1 : 0);
