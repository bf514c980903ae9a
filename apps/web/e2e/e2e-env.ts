import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The built server the browser tests run against, with its own throw-away store. */
export const E2E = {
  root,
  port: 18080,
  baseURL: 'http://127.0.0.1:18080',
  dataDir: path.join(root, 'artifacts/e2e-data'),
  screenshots: path.join(root, 'artifacts/screenshots'),
  captcha: '2468',
  adminEmail: 'admin@e2e.test',
  adminPassword: 'AdminPass123',
  /** The proxy gateway of the e2e server, and a local origin its curl lines fetch (PROXY_CHECK_URL). */
  gatewayHttpPort: 18777,
  gatewaySocksPort: 18778,
  originPort: 18557,
};
