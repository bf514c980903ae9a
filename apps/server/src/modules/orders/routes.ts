import { buyDynamicBody, buyResponse, envelope, errorBody, intentionBody, myAllOrdersQuery, type MyOrderQuery, myOrderQuery, ORDER_KINDS, type OrderKind, orderCancelBody, orderCheckBody, orderDto, pageOf } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { keyScope } from '../../shared/key-scope';
import { currentAuth } from '../../shared/request-context';
import { toOrderDto } from './order-dto';
import type { OrderRepository } from './order-repository';
import type { OrderService } from './order-service';

export interface OrderRouteDeps {
  orders: OrderService;
  orderRepo: OrderRepository;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 429: errorBody, 502: errorBody };

/** A customer's buying and order history. */
export const orderRoutes: FastifyPluginAsyncZod<OrderRouteDeps> = async (app, { orders, orderRepo }) => {
  const config = { access: 'customer' as const };
  const tags = ['orders'];

  app.post('/buy/dynamic', { config: { ...config, limit: 'buy' }, schema: { security: keyScope('buy'), tags, body: buyDynamicBody, response: { 200: envelope(buyResponse), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const order = toOrderDto(await orders.buyDynamic(user.id, request.body, request.lang, request.apiKey));
    return { data: { order, payment: order.payment! } };
  });

  app.post('/order-check', { config, schema: { security: keyScope('read'), tags, body: orderCheckBody, response: { 200: envelope(orderDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    return { data: toOrderDto(await orders.check(user.id, request.body.orderNo, request.lang)) };
  });

  app.post('/order-cancel', { config, schema: { security: keyScope('buy'), tags, body: orderCancelBody, response: { 200: envelope(orderDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    return { data: toOrderDto(await orders.cancelOwn(user.id, request.body.orderNo)) };
  });

  app.post('/logs/intention-purchase', { config, schema: { tags, body: intentionBody, response: { 200: envelope(z.null()), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    await orders.logIntention(user.id, request.body);
    return { data: null };
  });

  const ordersPage = async (userId: number, kinds: OrderKind[], q: MyOrderQuery) => {
    const { items, total } = await orderRepo.pageForUser(userId, kinds, q);
    return { data: { items: items.map(toOrderDto), total, page: q.page, pageSize: q.pageSize } };
  };

  // Every order of the caller, of one kind when asked (Recharge Details).
  app.get('/record/order', { config, schema: { security: keyScope('read'), tags, querystring: myAllOrdersQuery, response: { 200: envelope(pageOf(orderDto)), ...errors } } }, async (request) =>
    ordersPage(currentAuth(request).user.id, request.query.kind ? [request.query.kind] : [...ORDER_KINDS], request.query),
  );

  // Traffic orders (with the admins' recharges) and static orders (purchases and renewals), each its own list.
  for (const [url, kinds] of [
    ['/record/dynamic-order', ['dynamic', 'manual-recharge']],
    ['/record/static-order', ['static', 'static-renew']],
  ] as const) {
    app.get(url, { config, schema: { security: keyScope('read'), tags, querystring: myOrderQuery, response: { 200: envelope(pageOf(orderDto)), ...errors } } }, async (request) =>
      ordersPage(currentAuth(request).user.id, [...kinds], request.query),
    );
  }
};
