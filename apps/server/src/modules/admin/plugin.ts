import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { adminRoutes } from './routes';
import { UserListRepository } from './user-list-repository';

export const adminModule: FastifyPluginAsync<ModuleDeps> = async (app, { db }) => {
  await app.register(adminRoutes, { userList: new UserListRepository(db) });
};
