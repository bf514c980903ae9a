import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PayConfigTable } from '../../db/schema';

type Trx = Transaction<Database>;

/** One row per payment method: plain settings as JSON, secrets sealed (PayConfigService opens them). */
export class PayConfigRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(method: string, trx?: Trx): Promise<Selectable<PayConfigTable> | undefined> {
    return (trx ?? this.db).selectFrom('pay_configs').selectAll().where('method', '=', method).executeTakeFirst();
  }

  async save(method: string, row: Omit<Selectable<PayConfigTable>, 'method'>, trx?: Trx): Promise<void> {
    await (trx ?? this.db)
      .insertInto('pay_configs')
      .values({ method, ...row })
      .onConflict((oc) => oc.column('method').doUpdateSet(row))
      .execute();
  }
}
