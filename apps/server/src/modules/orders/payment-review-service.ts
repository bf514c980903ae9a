import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import { AppError } from '../../shared/errors';
import type { AuditLogRepository } from '../audit/audit-log-repository';
import { type PaymentEventRow, PaymentEventRepository } from './payment-event-repository';

/** The admin's list of verified payments that credited nothing (`/manage/payment-review`). */
export class PaymentReviewService {
  private readonly events: PaymentEventRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly audit: AuditLogRepository,
  ) {
    this.events = new PaymentEventRepository(db);
  }

  page(status: 'open' | 'resolved', page: number, pageSize: number): Promise<{ items: PaymentEventRow[]; total: number }> {
    return this.events.pageForReview(status, page, pageSize);
  }

  /** Marks an open review resolved, with its audit row in the same transaction. */
  resolve(id: number, actor: { id: number; ip: string | null }): Promise<PaymentEventRow> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await this.events.resolve(id, actor.id, iso(this.clock.now()), trx);
      if (!updated) throw new AppError('NOT_FOUND');
      await this.audit.write(
        { actorId: actor.id, action: 'payment-review.resolve', target: `payment-event:${updated.id}`, before: { status: 'open' }, after: { status: 'resolved' }, ip: actor.ip },
        trx,
      );
      return updated;
    });
  }
}
