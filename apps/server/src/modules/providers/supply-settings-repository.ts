import { type SupplySettings, supplySettings } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';

const SETTINGS_KEY = 'gateway.supply';

/** The gateway's supply settings beside the providers: the demo's direct exit and the active probe's URL and pace. */
export class SupplySettingsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<SupplySettings> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
    return supplySettings.parse(row ? JSON.parse(row.value) : {});
  }

  async save(s: SupplySettings, trx?: Transaction<Database>): Promise<void> {
    const value = JSON.stringify(s);
    const updated_at = iso(this.clock.now());
    await (trx ?? this.db)
      .insertInto('settings')
      .values({ key: SETTINGS_KEY, value, updated_at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at }))
      .execute();
  }
}
