import { defineConfig } from '@playwright/test';
import { E2E } from './e2e-env';

export default defineConfig({
  testDir: '.',
  // PostgreSQL gets a short smoke of the journeys that cross the store: the server tests hold every data
  // rule on both stores, and the whole browser suite (layout and languages included) runs on SQLite.
  testMatch: E2E.store === 'postgres' ? 'store-smoke.spec.ts' : '*.spec.ts',
  testIgnore: E2E.store === 'postgres' ? [] : 'store-smoke.spec.ts',
  outputDir: `${E2E.root}/test-results/${E2E.store}`,
  // One server and one store: tests run in order and never retry, so a pass is a real pass.
  workers: 1,
  retries: 0,
  // The account journey and the distribution steps take most of a minute on a quiet 2-core machine and over
  // it under load (the layout tours set their own): a budget for the whole test, not a wait in it.
  timeout: 120_000,
  // Playwright's 5 s default for an expectation is shorter than a first render of a lazy page takes on
  // these 2-core machines while the server works too (a row that came a moment late failed a run).
  // Expectations still wait for their condition and pass the moment it holds.
  expect: { timeout: 15_000 },
  reporter: [['list'], ['./failure-context-reporter.ts'], ['json', { outputFile: process.env.E2E_JSON ?? `${E2E.root}/artifacts/e2e-${E2E.store}.json` }]],
  use: {
    baseURL: E2E.baseURL,
    locale: 'en-US',
    launchOptions: {
      // Debian's Chromium headless shell (scripts/prepare-test-machine.sh): Playwright's own browser download is not
      // available on these machines. The shell is what Playwright itself runs headless; CHROMIUM_PATH=/usr/bin/chromium
      // runs the full browser instead.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // Each run starts from an empty store (E2E_DATABASE: sqlite, or a fresh PostgreSQL database that is
      // dropped when the server stops). The config file is also loaded in every worker process, so the store is
      // made by the server's wrapper, never from the config's top level.
      command: 'node apps/web/e2e/e2e-server.mjs',
      cwd: E2E.root,
      url: `${E2E.baseURL}/api/site`,
      reuseExistingServer: false,
      timeout: 60_000,
      // SIGTERM, not the default SIGKILL: the server flushes metering and the wrapper drops the database.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      // The server's warnings and errors (LOG_LEVEL below) go into the run's output: a failure in CI then
      // shows what the server said at that moment.
      stdout: 'pipe',
      env: {
        E2E_DATA_DIR: E2E.dataDir,
        E2E_PG_DATABASE: E2E.store === 'postgres' ? (E2E.databaseName ?? '') : '',
        E2E_ADMIN_DATABASE_URL: E2E.adminDatabaseUrl,
        // The demo catalogue and direct egress: automatic on SQLite only, asked for on PostgreSQL.
        DEMO_DATA: 'on',
        PORT: String(E2E.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: E2E.baseURL,
        CAPTCHA_TEST_ANSWER: E2E.captcha,
        ADMIN_EMAIL: E2E.adminEmail,
        ADMIN_PASSWORD: E2E.adminPassword,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        GATEWAY_HTTP_PORT: String(E2E.gatewayHttpPort),
        GATEWAY_SOCKS_PORT: String(E2E.gatewaySocksPort),
        GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true',
        // The browser and the test's curl are on loopback: their address is what gets allowlisted.
        ALLOWLIST_PRIVATE_ADDRESSES: 'true',
        GATEWAY_PORT_RANGE_HTTP: E2E.portRangeHttp.join('-'),
        GATEWAY_PORT_RANGE_SOCKS: E2E.portRangeSocks.join('-'),
        PROXY_CHECK_URL: `http://127.0.0.1:${E2E.originPort}/`,
      },
    },
    {
      // The origin behind the gateway: Get Proxy's curl line fetches it, so a test can run that line as shown.
      command: `node -e "require('node:http').createServer((req, res) => res.end('resi e2e origin ' + 'x'.repeat(4096))).listen(${E2E.originPort}, '127.0.0.1')"`,
      url: `http://127.0.0.1:${E2E.originPort}/`,
      reuseExistingServer: false,
      timeout: 10_000,
    },
    {
      // A static IP's upstream proxy: static lines shown on the page carry traffic through it.
      command: `node apps/web/e2e/upstream-proxy.mjs ${E2E.upstreamPort}`,
      cwd: E2E.root,
      port: E2E.upstreamPort,
      reuseExistingServer: false,
      timeout: 10_000,
    },
  ],
});
