import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** How many of each kind the user detail drawer shows: the latest ones; the full lists live on their own pages. */
const RECENT = 20;

/** What the admin's user detail reads besides the user row (docs/api.md#administration). */
export class UserDetailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  proxyAccounts(userId: number) {
    return this.db
      .selectFrom('proxy_accounts')
      .select(['id', 'username', 'kind', 'status', 'limit_bytes', 'used_bytes', 'remark', 'created_at'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .execute();
  }

  staticIps(userId: number) {
    return this.db
      .selectFrom('static_allocations as s')
      .innerJoin('static_inventory as i', 'i.id', 's.inventory_id')
      .innerJoin('static_regions as r', 'r.id', 's.region_id')
      .select(['s.id', 'i.exit_ip', 'r.country', 's.status', 's.starts_at', 's.expires_at'])
      .where('s.user_id', '=', userId)
      .orderBy('s.id', 'desc')
      .limit(100)
      .execute();
  }

  orders(userId: number) {
    return this.db
      .selectFrom('orders')
      .select(['order_no', 'kind', 'status', 'amount', 'currency', 'pay_method', 'created_at', 'paid_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT)
      .execute();
  }

  logins(userId: number) {
    return this.db
      .selectFrom('login_logs')
      .select(['created_at', 'ip', 'user_agent', 'result'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RECENT)
      .execute();
  }

  /** Audit rows whose target is this user (`user:<id>`), with the acting admin's email. */
  audit(userId: number) {
    return this.db
      .selectFrom('audit_logs as a')
      .leftJoin('users as actor', 'actor.id', 'a.actor_id')
      .select(['a.created_at', 'a.actor_id', 'actor.email as actor_email', 'a.action', 'a.before', 'a.after'])
      .where('a.target', '=', `user:${userId}`)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(RECENT)
      .execute();
  }
}
