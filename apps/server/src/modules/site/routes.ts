import { type PayMethod, type SiteLinks, envelope, siteResponse } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export interface SiteDeps {
  appName: string;
  supportUrl: string;
  tutorialUrl: string;
  links: SiteLinks;
  payMethods: () => Promise<PayMethod[]>;
}

/**
 * Public facts the console shows before anyone logs in: product name (page titles), support, tutorial,
 * the operator's own pages, and the payment methods checkout offers (never a secret: any visitor sees them there).
 */
export const siteRoutes: FastifyPluginAsyncZod<SiteDeps> = async (app, site) => {
  app.get('/site', { config: { access: 'public' }, schema: { tags: ['site'], response: { 200: envelope(siteResponse) } } }, async () => ({
    data: { appName: site.appName, supportUrl: site.supportUrl, tutorialUrl: site.tutorialUrl, links: site.links, payMethods: await site.payMethods() },
  }));
};
