import type { FastifyPluginAsync } from 'fastify';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import type { ModuleDeps } from '../module-deps';
import { ExtractionService } from './extraction-service';
import { extractionRoutes } from './routes';

/** Extraction keys and links; new port leases are announced to the gateways. */
export const extractionModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, cutoffs }) => {
  await app.register(extractionRoutes, {
    extraction: new ExtractionService(
      db,
      clock,
      new SealedBox(config.APP_SECRET, SEAL_LABELS.proxyPassword),
      {
        host: config.GATEWAY_PUBLIC_HOST,
        httpPort: config.GATEWAY_HTTP_PORT,
        socksPort: config.GATEWAY_SOCKS_PORT,
        ranges: { http: config.GATEWAY_PORT_RANGE_HTTP, socks5: config.GATEWAY_PORT_RANGE_SOCKS },
        leasesPerUser: config.PORT_LEASES_PER_USER,
      },
      cutoffs,
    ),
  });
};
