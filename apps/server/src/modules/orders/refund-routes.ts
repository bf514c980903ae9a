import { envelope, errorBody, orderRefundBody, orderRefundDto, orderRefundQuery } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentAuth } from '../../shared/request-context';
import { toAdminOrderDto } from './order-dto';
import type { RefundResult, RefundService } from './refund-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const toDto = (r: RefundResult) => ({ order: toAdminOrderDto(r.order), takeBack: r.takeBack });

/** Refunds on the admin's order desk (docs/business-rules.md#refunds). */
export const orderRefundRoutes: FastifyPluginAsyncZod<{ refunds: RefundService }> = async (app, { refunds }) => {
  const config = { access: 'admin' as const };
  const tags = ['admin', 'orders'];

  app.get('/manage/order-refund', { config, schema: { tags, querystring: orderRefundQuery, response: { 200: envelope(orderRefundDto), ...errors } } }, async (request) => {
    return { data: toDto(await refunds.preview(request.query.orderNo.toUpperCase())) };
  });

  app.post('/manage/order-refund', { config, schema: { tags, body: orderRefundBody, response: { 200: envelope(orderRefundDto), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const result = await refunds.refund(request.body.orderNo.toUpperCase(), request.body.note, { id: user.id, ip: request.ip });
    return { data: toDto(result), message: request.t('messages.orderRefunded') };
  });
};
