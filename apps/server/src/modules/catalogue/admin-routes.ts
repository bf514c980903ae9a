import {
  businessBody,
  businessDto,
  emptyBody,
  envelope,
  errorBody,
  idParams,
  packageBody,
  packageDto,
  regionBody,
  regionDto,
  staticPriceBody,
  staticPriceDto,
  staticRegionBody,
  staticRegionDto,
} from '@resi/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { isUniqueViolation } from '../../db/db-errors';
import type { Database } from '../../db/schema';
import { currentAuth } from '../../shared/request-context';
import { AppError } from '../../shared/errors';
import { type Clock, iso } from '../../lib/clock';
import type { AuditLog } from '../audit/audit-log';
import { nameColumns, toBusinessDto, toPackageDto, toRegionDto, toStaticPriceDto, toStaticRegionDto } from './catalogue-dto';

type CatalogueTable = 'packages' | 'regions' | 'static_regions' | 'businesses' | 'static_prices';

interface Resource {
  path: string;
  table: CatalogueTable;
  body: z.ZodType;
  dto: z.ZodType;
  // `never` parameters: each resource's functions take its own body and row types.
  toRow(body: never, now: string, isNew: boolean): Record<string, unknown>;
  toDto(row: never): unknown;
  order: 'sort' | 'id';
  /** Rows the body points at must exist: an unknown one is a 404, not a foreign-key 500. */
  references?(db: Kysely<Database>, body: never): Promise<void>;
}

export interface CatalogueAdminDeps {
  db: Kysely<Database>;
  clock: Clock;
  audit: AuditLog;
  currency: string;
}

/**
 * Admin CRUD for the catalogue: `GET/POST /manage/<thing>`, `PUT/DELETE /manage/<thing>/:id`. The five
 * resources differ only in their columns, so one route set serves them all.
 */
export const catalogueAdminRoutes: FastifyPluginAsyncZod<CatalogueAdminDeps> = async (app, { db, clock, audit, currency }) => {
  const resources: Resource[] = [
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
      references: async (trx, b: z.infer<typeof staticPriceBody>) => {
        const region = await trx.selectFrom('static_regions').select('id').where('id', '=', b.regionId).executeTakeFirst();
        const business = await trx.selectFrom('businesses').select('id').where('id', '=', b.businessId).executeTakeFirst();
        if (!region || !business) throw new AppError('NOT_FOUND');
      },
    },
  ];

  const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
  // The catalogue tables share `id`; Kysely cannot type a table chosen at run time, hence a looser view.
  type LooseDb = Kysely<Record<CatalogueTable, { id: number } & Record<string, unknown>>>;
  const anyDb = db as unknown as LooseDb;

  for (const r of resources) {
    const config = { access: 'admin' as const };
    const tags = ['admin', 'catalogue'];

    app.get(`/manage/${r.path}`, { config, schema: { tags, response: { 200: envelope(z.object({ items: z.array(r.dto) })), ...errors } } }, async () => {
      const rows = await anyDb.selectFrom(r.table).selectAll().orderBy(r.order).orderBy('id').execute();
      return { data: { items: rows.map((row) => r.toDto(row as never)) } };
    });

    app.post(`/manage/${r.path}`, { config, schema: { tags, body: r.body, response: { 200: envelope(r.dto), ...errors } } }, async (request) => {
      const { user } = currentAuth(request);
      const row = await db.transaction().execute(async (trx) => {
        await r.references?.(trx, request.body as never);
        const created = await guardUnique(() =>
          (trx as unknown as LooseDb).insertInto(r.table).values(r.toRow(request.body as never, iso(clock.now()), true)).returningAll().executeTakeFirstOrThrow(),
        );
        await audit.write(trx, { actorId: user.id, action: `${r.path}.create`, target: `${r.path}:${created.id}`, after: created, ip: request.ip });
        return created;
      });
      return { data: r.toDto(row as never), message: request.t('messages.saved') };
    });

    app.put(
      `/manage/${r.path}/:id`,
      { config, schema: { tags, params: idParams, body: r.body, response: { 200: envelope(r.dto), ...errors } } },
      async (request) => {
        const { user } = currentAuth(request);
        const { id } = request.params;
        const row = await db.transaction().execute(async (trx) => {
          const t = trx as unknown as LooseDb;
          const before = await t.selectFrom(r.table).selectAll().where('id', '=', id).executeTakeFirst();
          if (!before) throw new AppError('NOT_FOUND');
          await r.references?.(trx, request.body as never);
          const after = await guardUnique(() =>
            t.updateTable(r.table).set(r.toRow(request.body as never, iso(clock.now()), false)).where('id', '=', id).returningAll().executeTakeFirstOrThrow(),
          );
          await audit.write(trx, { actorId: user.id, action: `${r.path}.update`, target: `${r.path}:${id}`, before, after, ip: request.ip });
          return after;
        });
        return { data: r.toDto(row as never), message: request.t('messages.saved') };
      },
    );

    app.delete(
      `/manage/${r.path}/:id`,
      { config, schema: { tags, params: idParams, body: emptyBody, response: { 200: envelope(z.null()), ...errors } } },
      async (request) => {
        const { user } = currentAuth(request);
        const { id } = request.params;
        await db.transaction().execute(async (trx) => {
          const t = trx as unknown as LooseDb;
          const before = await t.deleteFrom(r.table).where('id', '=', id).returningAll().executeTakeFirst();
          if (!before) throw new AppError('NOT_FOUND');
          await audit.write(trx, { actorId: user.id, action: `${r.path}.delete`, target: `${r.path}:${id}`, before, ip: request.ip });
        });
        return { data: null, message: request.t('messages.deleted') };
      },
    );
  }
};

async function guardUnique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CATALOGUE_DUPLICATE');
    // A referenced row deleted between the check and the write: the same answer as the check's.
    if (isForeignKeyViolation(err)) throw new AppError('NOT_FOUND');
    throw err;
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
