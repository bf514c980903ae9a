import { buyResponse, buyStaticBody, buyStaticRenewBody, envelope, errorBody, idParams, pageOf, staticProxyDto, staticProxyQuery, staticRemarkBody, staticReplaceBody } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import { toOrderDto } from '../orders/order-dto';
import type { StaticProxyViews } from './static-proxy-views';
import type { StaticOrderService } from './static-order-service';
import type { StaticReplacementService } from './replacement-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody, 502: errorBody };

/** A customer's static IPs: buying, renewing, and the list (docs/api.md#static-residential-ips). */
export const staticCustomerRoutes: FastifyPluginAsyncZod<{ orders: StaticOrderService; views: StaticProxyViews; replacements: StaticReplacementService }> = async (
  app,
  { orders, views, replacements },
) => {
  const config = { access: 'customer' as const };
  const tags = ['static'];

  app.post('/buy/static', { config: { ...config, limit: 'buy' }, schema: { security: keyScope('buy'), tags, body: buyStaticBody, response: { 200: envelope(buyResponse), ...errors } } }, async (request) => {
    const order = toOrderDto(await orders.buy(currentAuth(request).user.id, request.body, request.lang, request.apiKey));
    return { data: { order, payment: order.payment! } };
  });

  app.post('/buy/static-renew', { config: { ...config, limit: 'buy' }, schema: { security: keyScope('buy'), tags, body: buyStaticRenewBody, response: { 200: envelope(buyResponse), ...errors } } }, async (request) => {
    const order = toOrderDto(await orders.renew(currentAuth(request).user.id, request.body, request.lang, request.apiKey));
    return { data: { order, payment: order.payment! } };
  });

  app.get('/proxy/static', { config, schema: { security: keyScope('read'), tags, querystring: staticProxyQuery, response: { 200: envelope(pageOf(staticProxyDto)), ...errors } } }, async (request) => {
    const q = request.query;
    const { items, total } = await views.page(currentAuth(request).user.id, q);
    return { data: { items, total, page: q.page, pageSize: q.pageSize } };
  });

  app.put('/proxy/static/:id', { config, schema: { security: keyScope('proxies'), tags, params: idParams, body: staticRemarkBody, response: { 200: envelope(staticProxyDto), ...errors } } }, async (request) => ({
    data: await views.setRemark(currentAuth(request).user.id, request.params.id, request.body.remark),
    message: request.t('messages.saved'),
  }));

  app.post(
    '/proxy/static/:id/replace',
    { config, schema: { security: keyScope('proxies'), tags, params: idParams, body: staticReplaceBody, response: { 200: envelope(staticProxyDto), ...errors } } },
    async (request) => ({
      data: await replacements.replace(currentAuth(request).user.id, request.params.id, request.body),
      message: request.t('messages.saved'),
    }),
  );
};
