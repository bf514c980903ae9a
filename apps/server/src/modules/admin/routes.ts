import {
  adminResetPassBody,
  adminResetPassResponse,
  adminUserDetail,
  adminUserDto,
  entityId,
  envelope,
  errorBody,
  manageUserQuery,
  pageOf,
  updateUserBody,
  userBulkBody,
  userBulkResponse,
} from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Clock, iso } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import { currentAuth } from '../../shared/request-context';
import { sendCsv } from '../exports/csv';
import type { TrafficRepository } from '../traffic/traffic-repository';
import { toAdminUserDetail, toAdminUserDto } from './admin-user-dto';
import type { UserAdminService } from './user-admin-service';
import { userCsvColumns } from './user-csv';
import type { UserDetailRepository } from './user-detail-repository';
import type { UserListRepository } from './user-list-repository';

export interface AdminRouteDeps {
  clock: Clock;
  currency: string;
  userList: UserListRepository;
  details: UserDetailRepository;
  traffic: TrafficRepository;
  service: UserAdminService;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const idParams = z.object({ id: entityId });

/** Admin area (`/api/manage/*`): every route here is `access: 'admin'`. */
export const adminRoutes: FastifyPluginAsyncZod<AdminRouteDeps> = async (app, { clock, currency, userList, details, traffic, service }) => {
  const config = { access: 'admin' as const };
  const tags = ['admin'];
  const columns = userCsvColumns(currency);

  app.get(
    '/manage/user',
    { config: { ...config, export: 'users' }, schema: { tags, querystring: manageUserQuery, response: { 200: envelope(pageOf(adminUserDto)), ...errors } } },
    async (request, reply) => {
      const q = request.query;
      const now = iso(clock.now());
      if (request.csvExport) return sendCsv(request, reply, columns, (await userList.page(q, now, null)).items);
      const { items, total } = await userList.page(q, now);
      return { data: { items: items.map((u) => toAdminUserDto(u, currency)), total, page: q.page, pageSize: q.pageSize } };
    },
  );

  app.get('/manage/user/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(adminUserDetail), ...errors } } }, async (request) => {
    const id = request.params.id;
    const now = iso(clock.now());
    const user = await userList.one(id, now);
    if (!user) throw new AppError('USER_UNKNOWN');
    const [grants, accounts, statics, orders, logins, audit, apiKeys] = await Promise.all([
      traffic.liveGrants(id, now),
      details.proxyAccounts(id),
      details.staticIps(id),
      details.orders(id),
      details.logins(id),
      details.audit(id),
      app.apiKeys.list(id),
    ]);
    return { data: { ...toAdminUserDetail(user, currency, { grants, accounts, statics, orders, logins, audit }), apiKeys } };
  });

  app.post(
    '/manage/user/:id',
    { config, schema: { tags, params: idParams, body: updateUserBody, response: { 200: envelope(adminUserDto), ...errors } } },
    async (request) => {
      const { user } = currentAuth(request);
      await service.update(request.params.id, request.body, { id: user.id, ip: request.ip });
      const row = await userList.one(request.params.id, iso(clock.now()));
      if (!row) throw new AppError('USER_UNKNOWN');
      return { data: toAdminUserDto(row, currency), message: request.t('messages.saved') };
    },
  );

  app.post('/manage/reset-pass', { config, schema: { tags, body: adminResetPassBody, response: { 200: envelope(adminResetPassResponse), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const { password, mail } = await service.resetPassword(request.body.userId, request.body.password, { id: user.id, ip: request.ip });
    // The password is set either way; a mail that cannot go out is the operator's to see, not a failed reset.
    await mail().catch((err: unknown) => request.log.error({ err, userId: request.body.userId }, 'password reset mail not sent'));
    return { data: password === undefined ? {} : { password }, message: request.t('messages.userPasswordReset') };
  });

  app.post('/manage/user-bulk', { config, schema: { tags, body: userBulkBody, response: { 200: envelope(userBulkResponse), ...errors } } }, async (request) => {
    const { user } = currentAuth(request);
    const result = await service.bulk(request.body, { id: user.id, ip: request.ip });
    return { data: result, message: request.t('messages.usersBulk', result) };
  });
};
