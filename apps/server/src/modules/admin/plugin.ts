import type { FastifyPluginAsync } from 'fastify';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { TrafficRepository } from '../traffic/traffic-repository';
import { adminRoutes } from './routes';
import { UserAdminRepository } from './user-admin-repository';
import { UserAdminService } from './user-admin-service';
import { UserDetailRepository } from './user-detail-repository';
import { UserListRepository } from './user-list-repository';

/** User management for admins (docs/business-rules.md#user-administration). */
export const adminModule: FastifyPluginAsync<ModuleDeps> = async (app, { config, db, clock, mailer, cutoffs }) => {
  const userList = new UserListRepository(db);
  const service = new UserAdminService(db, new UserAdminRepository(db), userList, new AuditLogRepository(db, clock), mailer, config.APP_NAME, cutoffs);
  await app.register(adminRoutes, { clock, currency: config.CURRENCY, userList, details: new UserDetailRepository(db), traffic: new TrafficRepository(db), service });
};
