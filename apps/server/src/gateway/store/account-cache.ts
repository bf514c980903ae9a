import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { SealedBox } from '../../lib/sealed-box';
import type { AuthResult, GatewayAuthority, Refusal } from '../ports';

interface CachedAccount {
  id: number;
  userId: number;
  password: Buffer;
  active: boolean;
  limitBytes: number | null;
  usedBytes: number;
}

/**
 * The gateway's view of proxy accounts and balances, held in memory so a connection costs no query
 * (DESIGN §6: "balance checks read a cache refreshed by those flushes"). `refresh()` reloads it whole;
 * the gateway calls it on a timer and after each flush.
 */
export class AccountCache implements GatewayAuthority {
  private byName = new Map<string, CachedAccount>();
  private byId = new Map<number, CachedAccount>();
  private balance = new Map<number, number>();
  private readonly sealedOf = new Map<number, string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly box: SealedBox,
  ) {}

  async refresh(): Promise<void> {
    const now = iso(this.clock.now());
    const [accounts, balances] = await Promise.all([
      this.db
        .selectFrom('proxy_accounts as a')
        .innerJoin('users as u', 'u.id', 'a.user_id')
        .select(['a.id', 'a.user_id', 'a.username', 'a.password_sealed', 'a.status', 'a.limit_bytes', 'a.used_bytes', 'u.status as user_status'])
        .where('a.deleted_at', 'is', null)
        .execute(),
      this.db
        .selectFrom('traffic_grants')
        .select(['user_id', (eb) => eb.fn.sum<number>(eb('bytes', '-', eb.ref('used_bytes'))).as('left')])
        .where('expires_at', '>', now)
        .where((eb) => eb('used_bytes', '<', eb.ref('bytes')))
        .groupBy('user_id')
        .execute(),
    ]);
    const byName = new Map<string, CachedAccount>();
    const byId = new Map<number, CachedAccount>();
    for (const a of accounts) {
      const known = this.byId.get(a.id);
      const entry: CachedAccount = {
        id: a.id,
        userId: a.user_id,
        // Opening a sealed password costs a little; reuse it when the row did not change.
        password: known && this.sealedOf.get(a.id) === a.password_sealed ? known.password : Buffer.from(this.box.open(a.password_sealed)),
        active: a.status === 'active' && a.user_status === 'active',
        limitBytes: a.limit_bytes === null ? null : Number(a.limit_bytes),
        usedBytes: Number(a.used_bytes),
      };
      this.sealedOf.set(a.id, a.password_sealed);
      byName.set(a.username, entry);
      byId.set(a.id, entry);
    }
    this.byName = byName;
    this.byId = byId;
    this.balance = new Map(balances.map((b) => [b.user_id, Number(b.left)]));
  }

  authenticate(account: string, password: string): AuthResult {
    const a = this.byName.get(account.toLowerCase());
    const given = Buffer.from(password);
    if (!a || a.password.length !== given.length || !timingSafeEqual(a.password, given)) return { ok: false, reason: 'BAD_CREDENTIALS' };
    const refusal = this.standing(a.id);
    return refusal ? { ok: false, reason: refusal } : { ok: true, accountId: a.id, userId: a.userId };
  }

  standing(accountId: number): Refusal | null {
    const a = this.byId.get(accountId);
    if (!a || !a.active) return 'ACCOUNT_DISABLED';
    if (a.limitBytes !== null && a.usedBytes >= a.limitBytes) return 'ACCOUNT_CAP';
    if ((this.balance.get(a.userId) ?? 0) <= 0) return 'NO_TRAFFIC';
    return null;
  }
}
