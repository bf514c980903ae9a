import { type SiteLinks, envelope, siteResponse } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export interface SiteDeps {
  appName: string;
  supportUrl: string;
  tutorialUrl: string;
  links: SiteLinks;
}

/** Public facts the console shows before anyone logs in: product name (page titles), support, tutorial and the operator's own pages. */
export const siteRoutes: FastifyPluginAsyncZod<SiteDeps> = async (app, site) => {
  app.get('/site', { config: { access: 'public' }, schema: { tags: ['site'], response: { 200: envelope(siteResponse) } } }, async () => ({
    data: { appName: site.appName, supportUrl: site.supportUrl, tutorialUrl: site.tutorialUrl, links: site.links },
  }));
};
