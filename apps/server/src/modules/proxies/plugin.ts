import type { FastifyPluginAsync } from 'fastify';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import type { ModuleDeps } from '../module-deps';
import { ProxyAccountService } from './proxy-account-service';
import { proxyAccountRoutes } from './routes';

/** A customer's proxy accounts; changes that cut an account off are announced on the cut-off bus. */
export const proxiesModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, cutoffs }) => {
  await app.register(proxyAccountRoutes, {
    accounts: new ProxyAccountService(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.proxyPassword), cutoffs),
    endpoint: { host: config.GATEWAY_PUBLIC_HOST, httpPort: config.GATEWAY_HTTP_PORT, socksPort: config.GATEWAY_SOCKS_PORT, checkUrl: config.PROXY_CHECK_URL },
  });
};
