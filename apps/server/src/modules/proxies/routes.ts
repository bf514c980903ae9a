import {
  type ProxyEndpoint,
  buildProxyLines,
  createProxyAccountBody,
  emptyBody,
  envelope,
  errorBody,
  idParams,
  proxyAccountDto,
  proxyEndpointDto,
  proxyLinesQuery,
  updateProxyAccountBody,
} from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import type { ProxyAccountService } from './proxy-account-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

/** `GET/POST/PUT/DELETE /proxy/dynamic`: a customer's own proxy accounts. */
export const proxyAccountRoutes: FastifyPluginAsyncZod<{ accounts: ProxyAccountService; endpoint: ProxyEndpoint }> = async (app, { accounts, endpoint }) => {
  const config = { access: 'customer' as const };
  const tags = ['proxies'];

  app.get('/proxy/dynamic', { config, schema: { security: keyScope('read'), tags, response: { 200: envelope(z.object({ items: z.array(proxyAccountDto) })), ...errors } } }, async (request) => ({
    data: { items: await accounts.list(currentAuth(request).user.id) },
  }));

  app.post('/proxy/dynamic', { config, schema: { security: keyScope('proxies'), tags, body: createProxyAccountBody, response: { 200: envelope(proxyAccountDto), ...errors } } }, async (request) => ({
    data: await accounts.create(currentAuth(request).user.id, request.body),
    message: request.t('messages.saved'),
  }));

  app.put(
    '/proxy/dynamic/:id',
    { config, schema: { security: keyScope('proxies'), tags, params: idParams, body: updateProxyAccountBody, response: { 200: envelope(proxyAccountDto), ...errors } } },
    async (request) => ({
      data: await accounts.update(currentAuth(request).user.id, request.params.id, request.body),
      message: request.t('messages.saved'),
    }),
  );

  app.delete('/proxy/dynamic/:id', { config, schema: { security: keyScope('proxies'), tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    await accounts.remove(currentAuth(request).user.id, request.params.id);
    return { data: null, message: request.t('messages.deleted') };
  });

  /** Where customers point their tools: the gateway's public host and ports. */
  app.get('/proxy/endpoint', { config, schema: { security: keyScope('read'), tags, response: { 200: envelope(proxyEndpointDto), ...errors } } }, async () => ({ data: endpoint }));

  /** The same lines Get Proxy shows, as a file to download (one line per proxy). */
  app.get('/proxy/dynamic/export', { config, schema: { security: keyScope('read'), tags, querystring: proxyLinesQuery, ...errors } }, async (request, reply) => {
    const { accountId, ...q } = request.query;
    const account = await accounts.get(currentAuth(request).user.id, accountId);
    const lines = buildProxyLines(account, q, endpoint);
    return reply
      .type('text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="proxies-${account.username}-${q.protocol}.txt"`)
      .header('cache-control', 'no-store')
      .send(lines.join('\n') + '\n');
  });
};
