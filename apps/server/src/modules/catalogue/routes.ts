import { businessDto, envelope, goodsResponse, regionDto, staticRegionWithStock } from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Clock, iso } from '../../lib/clock';
import type { StaticStockRepository } from '../static-ips/stock-repository';
import type { CatalogueRepository } from './catalogue-repository';
import { toBusinessDto, toPackageDto, toRegionDto, toStaticPriceDto, toStaticRegionDto } from './catalogue-dto';

/** The shop window: only what is enabled, in the operator's order. Public, so a landing page can show prices. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ catalogue: CatalogueRepository; stock: StaticStockRepository; clock: Clock }> = async (app, { catalogue, stock, clock }) => {
  const config = { access: 'public' as const };
  const tags = ['catalogue'];

  app.get('/goods', { config, schema: { tags, response: { 200: envelope(goodsResponse) } } }, async () => {
    const [packages, prices] = await Promise.all([catalogue.enabledPackages(), catalogue.enabledStaticPrices()]);
    return { data: { packages: packages.map(toPackageDto), staticPrices: prices.map(toStaticPriceDto) } };
  });

  app.get('/region', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(regionDto) })) } } }, async () => {
    const rows = await catalogue.enabledRegions();
    return { data: { items: rows.map(toRegionDto) } };
  });

  // With the free stock per enabled business line, so the shop can show what is left and what is sold out.
  app.get('/static-region', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(staticRegionWithStock) })) } } }, async () => {
    const [rows, free] = await Promise.all([catalogue.enabledStaticRegions(), stock.freeStock(iso(clock.now()))]);
    const items = rows.map((r) => ({
      ...toStaticRegionDto(r),
      stock: free.filter((f) => f.regionId === r.id).map(({ businessId, available }) => ({ businessId, available })),
    }));
    return { data: { items } };
  });

  app.get('/business', { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(businessDto) })) } } }, async () => {
    const rows = await catalogue.enabledBusinesses();
    return { data: { items: rows.map(toBusinessDto) } };
  });
};
