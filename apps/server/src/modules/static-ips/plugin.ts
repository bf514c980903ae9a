import type { FastifyPluginAsync } from 'fastify';
import { SEAL_LABELS, SealedBox } from '../../lib/sealed-box';
import { AuditLogRepository } from '../audit/audit-log-repository';
import { CatalogueRepository } from '../catalogue/catalogue-repository';
import type { ModuleDeps } from '../module-deps';
import { staticInventoryRoutes } from './admin-routes';
import { StaticInventoryRepository } from './inventory-repository';
import { StaticInventoryService } from './inventory-service';
import { StaticStockRepository } from './stock-repository';

/** Static residential IPs: the operator's inventory (docs/business-rules.md#static-residential-ips). */
export const staticIpsModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock }) => {
  const inventory = new StaticInventoryRepository(db, clock, new SealedBox(config.APP_SECRET, SEAL_LABELS.staticUpstreamPassword));
  const service = new StaticInventoryService(db, inventory, new CatalogueRepository(db), new AuditLogRepository(db, clock));
  await app.register(staticInventoryRoutes, { service, inventory, stock: new StaticStockRepository(db) });
};
