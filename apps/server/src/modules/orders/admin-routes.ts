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
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database, PaymentEventTable } from '../../db/schema';
import { currentAuth } from '../../shared/request-context';
import { AppError } from '../../shared/errors';
import { type Clock, iso } from '../../lib/clock';
import type { AuditLog } from '../audit/audit-log';
import type { Fulfilment } from './fulfilment';
import { sendCsv } from '../exports/csv';
import { toAdminOrderDto } from './order-dto';
import { orderCsvColumns } from './order-csv';
import type { OrderRepository } from './order-repository';
import type { OrderService } from './order-service';

export interface OrderAdminDeps {
  db: Kysely<Database>;
  clock: Clock;
  audit: AuditLog;
  orders: OrderService;
  orderRepo: OrderRepository;
  fulfilment: Fulfilment;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

const toReviewDto = (e: Selectable<PaymentEventTable>) => ({
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
export const orderAdminRoutes: FastifyPluginAsyncZod<OrderAdminDeps> = async (app, { db, clock, audit, orders, orderRepo, fulfilment }) => {
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
    const orderNo = request.body.orderNo.toUpperCase();
    const res = await fulfilment.markPaid(orderNo, { by: 'admin', allowExpired: true, actor: { id: user.id, ip: request.ip } });
    if (!res.order) throw new AppError('NOT_FOUND');
    // Paid by someone else a moment ago is what the admin wanted: answer the order as it is.
    if (!res.credited && res.order.status !== 'paid') throw new AppError('ORDER_NOT_PENDING', { status: res.order.status });
    const email = await db.selectFrom('users').select('email').where('id', '=', res.order.user_id).executeTakeFirstOrThrow();
    return {
      data: toAdminOrderDto({ ...res.order, user_email: email.email }),
      message: request.t(res.credited ? 'messages.orderVerified' : 'messages.orderAlreadyPaid'),
    };
  });

  app.post('/manage/recharge', { config, schema: { tags, body: rechargeBody, response: { 200: envelope(adminOrderDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const order = await orders.recharge(request.body, { id: user.id, ip: request.ip });
    const owner = await db.selectFrom('users').select('email').where('id', '=', order.user_id).executeTakeFirstOrThrow();
    return { data: toAdminOrderDto({ ...order, user_email: owner.email }), message: request.t('messages.recharged') };
  });

  const reviewQuery = pageQuery.extend({ status: z.enum(['open', 'resolved']).default('open') });
  app.get('/manage/payment-review', { config, schema: { tags, querystring: reviewQuery, response: { 200: envelope(pageOf(paymentReviewDto)), ...errors } } }, async (request) => {
    const q = request.query;
    const base = db.selectFrom('payment_events').where('review_status', '=', q.status);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize)
      .execute();
    return { data: { items: rows.map(toReviewDto), total: Number(n), page: q.page, pageSize: q.pageSize } };
  });

  app.post(
    '/manage/payment-review/resolve',
    { config, schema: { tags, body: z.strictObject({ id: entityId }), response: { 200: envelope(paymentReviewDto), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      const row = await db.transaction().execute(async (trx) => {
        const now = iso(clock.now());
        const updated = await trx
          .updateTable('payment_events')
          .set({ review_status: 'resolved', resolved_at: now, resolved_by: user.id })
          .where('id', '=', request.body.id)
          .where('review_status', '=', 'open')
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw new AppError('NOT_FOUND');
        await audit.write(trx, { actorId: user.id, action: 'payment-review.resolve', target: `payment-event:${updated.id}`, before: { status: 'open' }, after: { status: 'resolved' }, ip: request.ip });
        return updated;
      });
      return { data: toReviewDto(row), message: request.t('messages.saved') };
    },
  );
};
