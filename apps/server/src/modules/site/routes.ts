import { envelope, siteResponse } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export interface SiteDeps {
  appName: string;
  supportUrl: string;
  tutorialUrl: string;
}

/** Public facts the console shows before anyone logs in: product name (page titles), support and tutorial links. */
export const siteRoutes: FastifyPluginAsyncZod<SiteDeps> = async (app, site) => {
  app.get('/site', { config: { access: 'public' }, schema: { tags: ['site'], response: { 200: envelope(siteResponse) } } }, async () => ({
    data: { appName: site.appName, supportUrl: site.supportUrl, tutorialUrl: site.tutorialUrl },
  }));
};
