import { adminUserDto, envelope, errorBody, manageUserQuery, pageOf } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../exports/csv';
import { toAdminUserDto } from './admin-user-dto';
import { userCsvColumns } from './user-csv';
import type { UserListRepository } from './user-list-repository';

/** Admin area (`/api/manage/*`): every route here is `access: 'admin'`. */
export const adminRoutes: FastifyPluginAsyncZod<{ userList: UserListRepository }> = async (app, { userList }) => {
  app.get(
    '/manage/user',
    {
      config: { access: 'admin', export: 'users' },
      schema: { tags: ['admin'], querystring: manageUserQuery, response: { 200: envelope(pageOf(adminUserDto)), 401: errorBody, 403: errorBody } },
    },
    async (request, reply) => {
      if (request.csvExport) return sendCsv(request, reply, userCsvColumns, (await userList.page(request.query, null)).items);
      const { items, total } = await userList.page(request.query);
      return { data: { items: items.map(toAdminUserDto), total, page: request.query.page, pageSize: request.query.pageSize } };
    },
  );
};
