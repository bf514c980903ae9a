import { emptyBody, envelope, errorBody, idParams } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentAuth } from '../../shared/request-context';
import type { CatalogueAdminService } from './catalogue-admin-service';
import { catalogueResources } from './catalogue-resources';

export interface CatalogueAdminDeps {
  catalogue: CatalogueAdminService;
  currency: string;
}

/**
 * Admin CRUD for the catalogue: `GET/POST /manage/<thing>`, `PUT/DELETE /manage/<thing>/:id`. The five
 * resources differ only in their columns, so one route set serves them all.
 */
export const catalogueAdminRoutes: FastifyPluginAsyncZod<CatalogueAdminDeps> = async (app, { catalogue, currency }) => {
  const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

  for (const r of catalogueResources(currency)) {
    const config = { access: 'admin' as const };
    const tags = ['admin', 'catalogue'];

    app.get(`/manage/${r.path}`, { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(r.dto) })), ...errors } } }, async () => {
      const rows = await catalogue.list(r);
      return { data: { items: rows.map((row) => r.toDto(row as never)) } };
    });

    app.post(`/manage/${r.path}`, { config, schema: { tags, body: r.body, response: { 200: envelope(r.dto), ...errors } } }, async (request) => {
      const { user } = currentAuth(request);
      const row = await catalogue.create(r, request.body, { id: user.id, ip: request.ip });
      return { data: r.toDto(row as never), message: request.t('messages.saved') };
    });

    app.put(
      `/manage/${r.path}/:id`,
      { config, schema: { tags, params: idParams, body: r.body, response: { 200: envelope(r.dto), ...errors } } },
      async (request) => {
        const { user } = currentAuth(request);
        const row = await catalogue.update(r, request.params.id, request.body, { id: user.id, ip: request.ip });
        return { data: r.toDto(row as never), message: request.t('messages.saved') };
      },
    );

    app.delete(
      `/manage/${r.path}/:id`,
      { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } },
      async (request) => {
        const { user } = currentAuth(request);
        await catalogue.remove(r, request.params.id, { id: user.id, ip: request.ip });
        return { data: null, message: request.t('messages.deleted') };
      },
    );
  }
};
