import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps';
import { siteRoutes } from './routes';

export const siteModule: FastifyPluginAsync<ModuleDeps> = async (app, { config }) => {
  await app.register(siteRoutes, {
    appName: config.APP_NAME,
    supportUrl: config.SUPPORT_URL ?? '',
    tutorialUrl: config.TUTORIAL_URL,
    links: {
      knowledgeBase: config.KNOWLEDGE_BASE_URL ?? null,
      faq: config.FAQ_URL ?? null,
      blog: config.BLOG_URL ?? null,
      toolbox: config.TOOLBOX_URL ?? null,
    },
    // What checkout offers right now: the tips panel advertises only these.
    payMethods: () => app.payments.configs.enabledMethods(),
  });
};
