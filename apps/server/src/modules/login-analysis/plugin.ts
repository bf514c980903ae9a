import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { LoginAnalysisRepository } from './login-analysis-repository';
import { loginAnalysisRoutes } from './routes';

/** Login analysis for admins (docs/business-rules.md#login): reads the rows the auth module writes for every sign-in attempt. */
export const loginAnalysisModule: FastifyPluginAsync<ModuleDeps> = async (app, { db, clock }) => {
  await app.register(loginAnalysisRoutes, { logs: new LoginAnalysisRepository(db), clock });
};
