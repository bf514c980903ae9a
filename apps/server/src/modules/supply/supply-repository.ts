import { type SupplySettings, type UpstreamBody, type UpstreamDto, supplySettings } from '@resi/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UpstreamTable } from '../../db/schema';
import { AppError } from '../../shared/errors';
import { type Clock, iso } from '../../lib/clock';
import { type SealedBox, mask } from '../../lib/sealed-box';
import { upstreamUrl } from '../../shared/upstream-url';

const SETTINGS_KEY = 'gateway.supply';

/** An upstream ready for the gateway: its proxy URL with credentials, and its region tags. */
export interface SupplyUpstream {
  id: string;
  url: string;
  country: string | null;
  state: string | null;
  city: string | null;
}

type Row = Selectable<UpstreamTable>;
type Trx = Transaction<Database>;

/** Where rotating traffic exits (docs/data-model.md#proxy-accounts-and-supply): upstream proxies and the gateway's supply settings. */
export class SupplyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly box: SealedBox,
  ) {}

  async list(): Promise<UpstreamDto[]> {
    const rows = await this.db.selectFrom('upstreams').selectAll().orderBy('id').execute();
    return rows.map((r) => this.toDto(r));
  }

  async find(id: number, trx?: Trx): Promise<Row | undefined> {
    return (trx ?? this.db).selectFrom('upstreams').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async create(body: UpstreamBody, trx?: Trx): Promise<UpstreamDto> {
    const now = iso(this.clock.now());
    const row = await (trx ?? this.db)
      .insertInto('upstreams')
      .values({ ...this.columns(body, null), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.toDto(row);
  }

  async update(id: number, body: UpstreamBody, trx?: Trx): Promise<UpstreamDto> {
    const before = await this.find(id, trx);
    if (!before) throw new AppError('NOT_FOUND');
    const row = await (trx ?? this.db)
      .updateTable('upstreams')
      .set({ ...this.columns(body, before.password_sealed), updated_at: iso(this.clock.now()) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.toDto(row);
  }

  async remove(id: number, trx?: Trx): Promise<Row> {
    const row = await (trx ?? this.db).deleteFrom('upstreams').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async settings(): Promise<SupplySettings> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
    return supplySettings.parse(row ? JSON.parse(row.value) : {});
  }

  async saveSettings(s: SupplySettings, trx?: Trx): Promise<void> {
    const value = JSON.stringify(s);
    const updated_at = iso(this.clock.now());
    await (trx ?? this.db)
      .insertInto('settings')
      .values({ key: SETTINGS_KEY, value, updated_at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at }))
      .execute();
  }

  /** The enabled upstreams as proxy URLs, for the gateway's exit chooser. */
  async enabledUpstreams(): Promise<SupplyUpstream[]> {
    const rows = await this.db.selectFrom('upstreams').selectAll().where('enabled', '=', 1).orderBy('id').execute();
    return rows.map((r) => ({
      id: `upstream-${r.id}`,
      url: upstreamUrl({ ...r, password: r.password_sealed ? this.box.open(r.password_sealed) : null }),
      country: r.country,
      state: r.state,
      city: r.city,
    }));
  }

  private columns(b: UpstreamBody, sealed: string | null) {
    // Absent password keeps the stored one, "" clears it (as with payment secrets).
    const password_sealed = b.password === undefined ? sealed : b.password === '' ? null : this.box.seal(b.password);
    return {
      protocol: b.protocol,
      host: b.host,
      port: b.port,
      username: b.username || null,
      password_sealed,
      country: b.country,
      state: b.state,
      city: b.city,
      enabled: b.enabled ? 1 : 0,
      remark: b.remark,
    };
  }

  toDto(r: Row): UpstreamDto {
    return {
      id: r.id,
      protocol: r.protocol,
      host: r.host,
      port: r.port,
      username: r.username,
      password: r.password_sealed ? mask(this.box.open(r.password_sealed)) : null,
      country: r.country,
      state: r.state,
      city: r.city,
      enabled: Boolean(r.enabled),
      remark: r.remark,
    };
  }
}
