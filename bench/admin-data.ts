/**
 * The admin lists' bench data (`npm run bench:api`): 100,000 users, 1,000,000 login_logs rows, 100,000
 * orders over the last 400 days, 1,000 proxy accounts and 200,000 hourly usage rows (with their daily roll-up), written by a few
 * INSERT … SELECT statements over a generated series, so seeding takes seconds rather than minutes.
 * The same SQL shape on both stores: a recursive CTE on SQLite, generate_series on PostgreSQL.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../apps/server/src/db/schema';

export const SIZES = { users: 100_000, loginLogs: 1_000_000, orders: 100_000, accounts: 1_000, usage: 200_000 };

const ITEMS = JSON.stringify([{ type: 'traffic', name: { en: 'Basic 10 GB', 'zh-cn': 'Basic 10 GB', zh: 'Basic 10 GB' }, bytes: 10 * 1024 ** 3, validityDays: 30, quantity: 1, unitPrice: 2500 }]);

export async function seedAdminData(db: Kysely<Database>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const now = Math.floor(Date.now() / 1000);
  /** `SELECT <columns> FROM <1..n as i>` in the store's own way. */
  const series = (n: number, columns: string) =>
    pg ? `select ${columns} from generate_series(1, ${n}) as s(i)` : `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select ${columns} from s`;
  /** The ISO string of `seconds` seconds before now, as the app stores times. */
  const ago = (seconds: string) =>
    pg ? `to_char(to_timestamp(${now} - (${seconds})) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${now} - (${seconds}), 'unixepoch')`;
  const mod = (a: string, b: number) => `((${a}) % ${b})`;
  const DAY = 86_400;
  const run = (text: string) => sql.raw(text).execute(db);

  const { base } = await db.selectFrom('users').select((eb) => eb.fn.coalesce(eb.fn.max('id'), sql<number>`0`).as('base')).executeTakeFirstOrThrow();
  const user = (i: string) => `(${Number(base)} + 1 + ${mod(i, SIZES.users)})`;
  await run(
    `insert into users (email, password_hash, role, is_distributor, status, invite_code, lang, created_at) ` +
      series(SIZES.users, `'bench' || i || '@example.com', 'x', 'customer', 0, case when ${mod('i', 50)} = 0 then 'disabled' else 'active' end, 'B' || i, 'en', ${ago(`i * 345`)}`),
  );
  await run(
    `insert into login_logs (user_id, account, ip, user_agent, result, created_at) ` +
      series(
        SIZES.loginLogs,
        `${user('i')}, 'bench' || ${mod('i', SIZES.users)} || '@example.com', '10.' || ${mod('i', 200)} || '.' || ${mod('i / 200', 250)} || '.1', 'bench', case when ${mod('i', 7)} = 0 then 'bad_password' else 'success' end, ${ago(`i * 34`)}`,
      ),
  );
  const status = `case when ${mod('i', 10)} < 7 then 'paid' when ${mod('i', 10)} = 7 then 'pending' when ${mod('i', 10)} = 8 then 'expired' else 'refunded' end`;
  const paid = `${mod('i', 10)} < 7 or ${mod('i', 10)} = 9`;
  const method = `case ${mod('i', 4)} when 0 then 'card' when 1 then 'alipay' when 2 then 'usdt-trc20' else 'sandbox' end`;
  await run(
    `insert into orders (order_no, user_id, kind, items, amount, currency, pay_method, status, paid_by, expires_at, paid_at, created_at, updated_at) ` +
      series(
        SIZES.orders,
        `'B' || i, ${user('i * 7')}, 'dynamic', '${ITEMS}', 500 + ${mod('i', 40)} * 100, 'USD', ${method}, ${status}, case when ${paid} then 'webhook' else null end, ` +
          `${ago(`i * 345 - 1800`)}, case when ${paid} then ${ago(`i * 345 - 60`)} else null end, ${ago(`i * 345`)}, ${ago(`i * 345 - 120`)}`,
      ),
  );
  await run(
    `insert into proxy_accounts (user_id, username, password_sealed, status, created_at, updated_at) ` +
      series(SIZES.accounts, `${user('i')}, 'bench_' || i, 'x', 'active', ${ago(`${DAY * 400}`)}, ${ago(`${DAY * 400}`)}`),
  );
  const { first } = await db.selectFrom('proxy_accounts').select((eb) => eb.fn.min('id').as('first')).where('username', '=', 'bench_1').executeTakeFirstOrThrow();
  const account = (i: string) => `(${Number(first)} + ${mod(i, SIZES.accounts)})`;
  await run(
    `insert into usage_hourly (account_id, user_id, hour, country, bytes_up, bytes_down) ` +
      series(
        SIZES.usage,
        // Each account one row an hour, going back hour by hour: 200 hours of 1,000 accounts.
        `${account('i')}, ${user(`${mod('i', SIZES.accounts)} + 1`)}, ${pg ? `to_char(date_trunc('hour', to_timestamp(${now} - (i / ${SIZES.accounts}) * 3600) at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:00:00.000Z', ${now} - (i / ${SIZES.accounts}) * 3600, 'unixepoch')`}, ` +
          `case ${mod('i', 3)} when 0 then 'US' when 1 then 'DE' else '' end, 1000 + i, 50000 + i`,
      ),
  );
  // The gateway writes each hour's bytes into the daily roll-up too (usage-repository.ts).
  await run(`insert into usage_daily (day, user_id, country, bytes_up, bytes_down) select substr(hour, 1, 10), user_id, country, sum(bytes_up), sum(bytes_down) from usage_hourly where account_id >= ${Number(first)} group by substr(hour, 1, 10), user_id, country`);
  // Fresh statistics for the planners, as after a day of normal writes.
  await run('analyze');
}
