import {
  STATIC_IMPORT_MAX_LINES,
  envelope,
  errorBody,
  idParams,
  pageOf,
  staticImportBody,
  staticImportResult,
  staticInventoryDto,
  staticInventoryEvent,
  staticInventoryQuery,
  staticInventoryUpdate,
  staticRechargeBody,
  staticRenewRechargeBody,
  staticStockCell,
  orderDto,
} from '@resi/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { currentAuth } from '../../shared/request-context';
import type { StaticInventoryRepository } from './inventory-repository';
import type { StaticInventoryService } from './inventory-service';
import type { StaticStockRepository } from './stock-repository';
import { toOrderDto } from '../orders/order-dto';
import type { StaticOrderService } from './static-order-service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const retireBody = z.strictObject({ reason: z.string().trim().max(200).optional() }).nullish();

/** Admin: the static residential inventory (docs/api.md#static-residential-ips). */
export const staticInventoryRoutes: FastifyPluginAsyncZod<{
  service: StaticInventoryService;
  inventory: StaticInventoryRepository;
  stock: StaticStockRepository;
  orders: StaticOrderService;
}> = async (app, { service, inventory, stock, orders }) => {
  const config = { access: 'admin' as const };
  const tags = ['admin', 'static'];
  const actor = (request: FastifyRequest) => ({ id: currentAuth(request).user.id, ip: request.ip });

  app.post('/manage/static-inventory', { config, schema: { tags, body: staticImportBody, response: { 200: envelope(staticImportResult), ...errors } } }, async (request) => {
    const outcomes = await service.import(request.body, actor(request));
    if (outcomes.length === 0) throw new AppError('VALIDATION_FAILED', { detail: request.t('staticImport.empty') });
    const results = outcomes.map(({ problem, ...o }) => ({ ...o, reason: problem === null ? null : request.t(`staticImport.${problem}`, { max: STATIC_IMPORT_MAX_LINES }) }));
    const count = (s: string) => results.filter((r) => r.status === s).length;
    const summary = { created: count('created'), duplicate: count('duplicate'), invalid: count('invalid') };
    return { data: { results, ...summary }, message: request.t('staticImport.summary', summary) };
  });

  app.get('/manage/static-inventory', { config, schema: { tags, querystring: staticInventoryQuery, response: { 200: envelope(pageOf(staticInventoryDto)), ...errors } } }, async (request) => {
    const { items, total } = await inventory.page(request.query);
    return { data: { items, total, page: request.query.page, pageSize: request.query.pageSize } };
  });

  app.get('/manage/static-inventory/board', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(staticStockCell) })), ...errors } } }, async () => ({
    data: { items: await stock.board() },
  }));

  app.get(
    '/manage/static-inventory/:id/history',
    { config, schema: { tags, params: idParams, response: { 200: envelope(z.object({ items: z.array(staticInventoryEvent) })), ...errors } } },
    async (request) => {
      if (!(await inventory.find(request.params.id))) throw new AppError('NOT_FOUND');
      return { data: { items: await inventory.events(request.params.id) } };
    },
  );

  app.put('/manage/static-inventory/:id', { config, schema: { tags, params: idParams, body: staticInventoryUpdate, response: { 200: envelope(staticInventoryDto), ...errors } } }, async (request) => ({
    data: await service.update(request.params.id, request.body, actor(request)),
    message: request.t('messages.saved'),
  }));

  app.delete('/manage/static-inventory/:id', { config, schema: { tags, params: idParams, body: retireBody, response: { 200: envelope(staticInventoryDto), ...errors } } }, async (request) => ({
    data: await service.retire(request.params.id, request.body?.reason || null, actor(request)),
    message: request.t('staticImport.retired'),
  }));

  // IPs or days at no charge, each recorded as a paid order of amount 0 with the admin's note.
  app.post('/manage/static-recharge', { config, schema: { tags, body: staticRechargeBody, response: { 200: envelope(orderDto), ...errors } } }, async (request) => ({
    data: toOrderDto(await orders.grant(request.body, actor(request))),
    message: request.t('messages.saved'),
  }));

  app.post(
    '/manage/static-renew-recharge',
    { config, schema: { tags, body: staticRenewRechargeBody, response: { 200: envelope(z.object({ orders: z.array(orderDto) })), ...errors } } },
    async (request) => ({
      data: { orders: (await orders.grantRenewal(request.body, actor(request))).map(toOrderDto) },
      message: request.t('messages.saved'),
    }),
  );
};
