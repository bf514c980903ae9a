import { defineConfig } from '@playwright/test';
import { E2E } from './e2e-env';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: `${E2E.root}/test-results`,
  // One server and one store: tests run in order and never retry, so a pass is a real pass.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: process.env.E2E_JSON ?? `${E2E.root}/artifacts/e2e.json` }]],
  use: {
    baseURL: E2E.baseURL,
    locale: 'en-US',
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download is not available on these machines.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // Each run starts from an empty store. The config file is also loaded in every worker process, so the
      // store is wiped here, before the server starts, and never from the config's top level.
      command: `rm -rf '${E2E.dataDir}' && node apps/server/dist/main.js`,
      cwd: E2E.root,
      url: `${E2E.baseURL}/api/site`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(E2E.port),
        HOST: '127.0.0.1',
        DATA_DIR: E2E.dataDir,
        PUBLIC_URL: E2E.baseURL,
        CAPTCHA_TEST_ANSWER: E2E.captcha,
        ADMIN_EMAIL: E2E.adminEmail,
        ADMIN_PASSWORD: E2E.adminPassword,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        GATEWAY_HTTP_PORT: String(E2E.gatewayHttpPort),
        GATEWAY_SOCKS_PORT: String(E2E.gatewaySocksPort),
        GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'true',
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
  ],
});
