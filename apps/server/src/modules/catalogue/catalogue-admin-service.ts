import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/db-errors';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import { type CatalogueRow, CatalogueRepository } from './catalogue-repository';
import type { Resource } from './catalogue-resources';

type Actor = { id: number; ip: string | null };

/** The admin's catalogue edits: each change and its audit row in one transaction. */
export class CatalogueAdminService {
  private readonly catalogue: CatalogueRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly audit: AuditLogRepository,
  ) {
    this.catalogue = new CatalogueRepository(db);
  }

  list(r: Resource): Promise<CatalogueRow[]> {
    return this.catalogue.listAll(r.table, r.order);
  }

  create(r: Resource, body: unknown, actor: Actor): Promise<CatalogueRow> {
    return this.db.transaction().execute(async (trx) => {
      await r.references?.(this.catalogue, body as never, trx);
      const created = await guardUnique(() => this.catalogue.insert(r.table, r.toRow(body as never, iso(this.clock.now()), true), trx));
      await this.audit.write({ actorId: actor.id, action: `${r.path}.create`, target: `${r.path}:${created.id}`, after: created, ip: actor.ip }, trx);
      return created;
    });
  }

  update(r: Resource, id: number, body: unknown, actor: Actor): Promise<CatalogueRow> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.catalogue.find(r.table, id, trx);
      if (!before) throw new AppError('NOT_FOUND');
      await r.references?.(this.catalogue, body as never, trx);
      const after = await guardUnique(() => this.catalogue.update(r.table, id, r.toRow(body as never, iso(this.clock.now()), false), trx));
      await this.audit.write({ actorId: actor.id, action: `${r.path}.update`, target: `${r.path}:${id}`, before, after, ip: actor.ip }, trx);
      return after;
    });
  }

  async remove(r: Resource, id: number, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await this.catalogue.remove(r.table, id, trx);
      if (!before) throw new AppError('NOT_FOUND');
      await this.audit.write({ actorId: actor.id, action: `${r.path}.delete`, target: `${r.path}:${id}`, before, ip: actor.ip }, trx);
    });
  }
}

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
