import { alertSettingsBody, alertSettingsDto, emptyBody, envelope, errorBody, idParams, noticesDto } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import type { AlertService } from './alert-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/**
 * `GET/POST /user/alerts`, `GET /user/notices`, `POST /user/notices/:id/read` (DESIGN §14). A program may read
 * thresholds and notices and mark them read (`read`); changing the thresholds is the console's.
 */
export const alertRoutes: FastifyPluginAsyncZod<{ alerts: AlertService }> = async (app, { alerts }) => {
  const config = { access: 'customer' as const };
  const tags = ['alerts'];

  app.get('/user/alerts', { config, schema: { security: keyScope('read'), tags, response: { 200: envelope(alertSettingsDto), ...errors } } }, async (request) => ({
    data: await alerts.settings(currentAuth(request).user.id),
  }));

  app.post('/user/alerts', { config, schema: { tags, body: alertSettingsBody, response: { 200: envelope(alertSettingsDto), ...errors } } }, async (request) => ({
    data: await alerts.saveSettings(currentAuth(request).user.id, request.body),
    message: request.t('messages.saved'),
  }));

  app.get('/user/notices', { config, schema: { security: keyScope('read'), tags, response: { 200: envelope(noticesDto), ...errors } } }, async (request) => ({
    data: await alerts.notices(currentAuth(request).user.id),
  }));

  app.post(
    '/user/notices/:id/read',
    { config, schema: { security: keyScope('read'), tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } },
    async (request) => {
      await alerts.markRead(currentAuth(request).user.id, request.params.id);
      return { data: null };
    },
  );
};
