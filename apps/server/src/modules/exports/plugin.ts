import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { AuditLogRepository } from '../audit/audit-log-repository';
import type { ModuleDeps } from '../module-deps';
import { registerExportRequests } from './export-request';
import { ExportTicketService } from './export-tickets';
import { exportRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** One-use tickets for CSV downloads: redeemed by the export hooks, issued by `POST /api/export-ticket`. */
    exportTickets: ExportTicketService;
  }
}

/**
 * The hooks that sign an export request in with its ticket, on the app itself: they must run before the
 * access guard on every export-capable route, whichever module registers it.
 */
export const exportRequests = fp<ModuleDeps>(
  async (app, { db, clock }) => {
    const tickets = new ExportTicketService(db, clock);
    app.decorate('exportTickets', tickets);
    registerExportRequests(app, tickets, clock, new AuditLogRepository(db, clock));
  },
  { name: 'export-requests' },
);

export const exportsModule: FastifyPluginAsync<ModuleDeps> = async (app) => {
  await app.register(exportRoutes, { tickets: app.exportTickets });
};
