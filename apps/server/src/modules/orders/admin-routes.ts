import {
  adminOrderDto,
  entityId,
  envelope,
  errorBody,
  manageOrderQuery,
  orderVerifyBody,
  pageOf,
  pageQuery,
  type PayMethod,
  paymentReviewDto,
  rechargeBody,
} from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentAuth } from '../../shared/request-context';
import { sendCsv } from '../exports/csv';
import { toAdminOrderDto } from './order-dto';
import { orderCsvColumns } from './order-csv';
import type { OrderRepository } from './order-repository';
import type { OrderService } from './order-service';
import type { PaymentEventRow } from './payment-event-repository';
import type { PaymentReviewService } from './payment-review-service';

export interface OrderAdminDeps {
  orders: OrderService;
  orderRepo: OrderRepository;
  reviews: PaymentReviewService;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

const toReviewDto = (e: PaymentEventRow) => ({
  id: e.id,
  provider: e.provider as PayMethod,
  eventId: e.event_id,
  orderNo: e.order_no,
  amount: e.amount,
  asset: e.asset,
  reason: e.reason ?? '',
  status: (e.review_status ?? 'open') as 'open' | 'resolved',
  createdAt: e.created_at,
});

/** The admin's order desk (`User Recharge`). */
export const orderAdminRoutes: FastifyPluginAsyncZod<OrderAdminDeps> = async (app, { orders, orderRepo, reviews }) => {
  const config = { access: 'admin' as const };
  const tags = ['admin', 'orders'];

  app.get('/manage/order', { config: { ...config, export: 'orders' }, schema: { tags, querystring: manageOrderQuery, response: { 200: envelope(pageOf(adminOrderDto)), ...errors } } }, async (request, reply) => {
    const q = request.query;
    if (request.csvExport) return sendCsv(request, reply, orderCsvColumns, (await orderRepo.pageForAdmin(q, null)).items);
    const { items, total } = await orderRepo.pageForAdmin(q);
    return { data: { items: items.map(toAdminOrderDto), total, page: q.page, pageSize: q.pageSize } };
  });

  app.post('/manage/order-verify', { config, schema: { tags, body: orderVerifyBody, response: { 200: envelope(adminOrderDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const { credited, order } = await orders.verify(request.body.orderNo.toUpperCase(), { id: user.id, ip: request.ip });
    return { data: toAdminOrderDto(order), message: request.t(credited ? 'messages.orderVerified' : 'messages.orderAlreadyPaid') };
  });

  app.post('/manage/recharge', { config, schema: { tags, body: rechargeBody, response: { 200: envelope(adminOrderDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const order = await orders.recharge(request.body, { id: user.id, ip: request.ip });
    return { data: toAdminOrderDto(order), message: request.t('messages.recharged') };
  });

  const reviewQuery = pageQuery.extend({ status: z.enum(['open', 'resolved']).default('open') });
  app.get('/manage/payment-review', { config, schema: { tags, querystring: reviewQuery, response: { 200: envelope(pageOf(paymentReviewDto)), ...errors } } }, async (request) => {
    const q = request.query;
    const { items, total } = await reviews.page(q.status, q.page, q.pageSize);
    return { data: { items: items.map(toReviewDto), total, page: q.page, pageSize: q.pageSize } };
  });

  app.post(
    '/manage/payment-review/resolve',
    { config, schema: { tags, body: z.strictObject({ id: entityId }), response: { 200: envelope(paymentReviewDto), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      const row = await reviews.resolve(request.body.id, { id: user.id, ip: request.ip });
      return { data: toReviewDto(row), message: request.t('messages.saved') };
    },
  );
};
