import { emptyBody, envelope, errorBody, exportTicketResponse } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentSession } from '../../shared/request-context';
import type { ExportTicketService } from './export-tickets';

/**
 * `POST /export-ticket`: any signed-in user may ask for one; what it opens is decided when it is used,
 * by the access policy of the export route (a customer's ticket on `/manage/order` is a 403). It dies
 * with the session that asked for it.
 */
export const exportRoutes: FastifyPluginAsyncZod<{ tickets: ExportTicketService }> = async (app, { tickets }) => {
  app.post(
    '/export-ticket',
    {
      config: { access: 'customer' },
      schema: { tags: ['exports'], body: emptyBody, response: { 200: envelope(exportTicketResponse), 400: errorBody, 401: errorBody } },
    },
    async (request) => {
      const { user, sessionId } = currentSession(request);
      return { data: { ticket: await tickets.issue(user.id, sessionId) } };
    },
  );
};
