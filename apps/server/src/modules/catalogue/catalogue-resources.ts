import {
  businessBody,
  businessDto,
  packageBody,
  packageDto,
  regionBody,
  regionDto,
  staticPriceBody,
  staticPriceDto,
  staticRegionBody,
  staticRegionDto,
} from '@resi/contract';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema';
import { AppError } from '../../shared/errors';
import { nameColumns, toBusinessDto, toPackageDto, toRegionDto, toStaticPriceDto, toStaticRegionDto } from './catalogue-dto';
import type { CatalogueRepository, CatalogueTable } from './catalogue-repository';

/** One thing the admin edits under `/manage/<path>`: its table, body and answer, and how one maps to the other. */
export interface Resource {
  path: string;
  table: CatalogueTable;
  body: z.ZodType;
  dto: z.ZodType;
  // `never` parameters: each resource's functions take its own body and row types.
  toRow(body: never, now: string, isNew: boolean): Record<string, unknown>;
  toDto(row: never): unknown;
  order: 'sort' | 'id';
  /** Rows the body points at must exist: an unknown one is a 404, not a foreign-key 500. */
  references?(catalogue: CatalogueRepository, body: never, trx: Transaction<Database>): Promise<void>;
}

/** The five catalogue resources; prices are recorded in the store's currency. */
export function catalogueResources(currency: string): Resource[] {
  return [
    {
      path: 'goods',
      table: 'packages',
      body: packageBody,
      dto: packageDto,
      order: 'sort',
      toDto: toPackageDto,
      toRow: (b: z.infer<typeof packageBody>, now, isNew) => ({
        ...nameColumns(b.name),
        bytes: b.bytes,
        price: b.price,
        currency,
        validity_days: b.validityDays,
        badge: b.badge,
        sort: b.sort,
        enabled: b.enabled ? 1 : 0,
        updated_at: now,
        ...(isNew ? { created_at: now } : {}),
      }),
    },
    {
      path: 'region',
      table: 'regions',
      body: regionBody,
      dto: regionDto,
      order: 'sort',
      toDto: toRegionDto,
      toRow: (b: z.infer<typeof regionBody>) => ({
        ...nameColumns(b.name),
        country: b.country,
        state: b.state,
        city: b.city,
        pool_size: b.poolSize,
        sort: b.sort,
        enabled: b.enabled ? 1 : 0,
      }),
    },
    {
      path: 'static-region',
      table: 'static_regions',
      body: staticRegionBody,
      dto: staticRegionDto,
      order: 'sort',
      toDto: toStaticRegionDto,
      toRow: (b: z.infer<typeof staticRegionBody>) => ({ ...nameColumns(b.name), country: b.country, city: b.city, sort: b.sort, enabled: b.enabled ? 1 : 0 }),
    },
    {
      path: 'business',
      table: 'businesses',
      body: businessBody,
      dto: businessDto,
      order: 'sort',
      toDto: toBusinessDto,
      toRow: (b: z.infer<typeof businessBody>) => ({ ...nameColumns(b.name), code: b.code, sort: b.sort, enabled: b.enabled ? 1 : 0 }),
    },
    {
      path: 'static-price',
      table: 'static_prices',
      body: staticPriceBody,
      dto: staticPriceDto,
      order: 'id',
      toDto: toStaticPriceDto,
      toRow: (b: z.infer<typeof staticPriceBody>) => ({ region_id: b.regionId, business_id: b.businessId, days: b.days, price: b.price, currency }),
      references: async (catalogue, b: z.infer<typeof staticPriceBody>, trx) => {
        const region = await catalogue.exists('static_regions', b.regionId, trx);
        const business = await catalogue.exists('businesses', b.businessId, trx);
        if (!region || !business) throw new AppError('NOT_FOUND');
      },
    },
  ];
}
