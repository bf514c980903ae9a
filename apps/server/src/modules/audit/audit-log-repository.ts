import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';

export interface AuditEntry {
  actorId: number | null;
  action: string;
  /** What was touched, e.g. `order:R20261122…` or `package:3`. */
  target: string;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/** Every admin action leaves one row: who, what, before and after. Pass the action's transaction. */
export class AuditLogRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async write(e: AuditEntry, trx?: Transaction<Database>): Promise<void> {
    await (trx ?? this.db)
      .insertInto('audit_logs')
      .values({
        actor_id: e.actorId,
        action: e.action,
        target: e.target,
        before: e.before === undefined ? null : JSON.stringify(e.before),
        after: e.after === undefined ? null : JSON.stringify(e.after),
        ip: e.ip ?? null,
        created_at: iso(this.clock.now()),
      })
      .execute();
  }
}
