import { businessDto, envelope, goodsResponse, regionDto, staticRegionDto } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema';
import { toBusinessDto, toPackageDto, toRegionDto, toStaticPriceDto, toStaticRegionDto } from './catalogue-dto';

/** The shop window: only what is enabled, in the operator's order. Public, so a landing page can show prices. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  const config = { access: 'public' as const };
  const tags = ['catalogue'];

  app.get('/goods', { config, schema: { tags, response: { 200: envelope(goodsResponse) } } }, async () => {
    const [packages, prices] = await Promise.all([
      db.selectFrom('packages').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('id').execute(),
      db
        .selectFrom('static_prices as p')
        .innerJoin('static_regions as r', 'r.id', 'p.region_id')
        .innerJoin('businesses as b', 'b.id', 'p.business_id')
        .selectAll('p')
        .where('r.enabled', '=', 1)
        .where('b.enabled', '=', 1)
        .orderBy('p.region_id')
        .orderBy('p.business_id')
        .orderBy('p.days')
        .execute(),
    ]);
    return { data: { packages: packages.map(toPackageDto), staticPrices: prices.map(toStaticPriceDto) } };
  });

  app.get('/region', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(regionDto) })) } } }, async () => {
    const rows = await db.selectFrom('regions').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('country').orderBy('id').execute();
    return { data: { items: rows.map(toRegionDto) } };
  });

  app.get('/static-region', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(staticRegionDto) })) } } }, async () => {
    const rows = await db.selectFrom('static_regions').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('id').execute();
    return { data: { items: rows.map(toStaticRegionDto) } };
  });

  app.get('/business', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(businessDto) })) } } }, async () => {
    const rows = await db.selectFrom('businesses').selectAll().where('enabled', '=', 1).orderBy('sort').orderBy('id').execute();
    return { data: { items: rows.map(toBusinessDto) } };
  });
};
