import { LOGIN_ANALYSIS_TOP, LOGIN_RESULTS, type LoginResult } from '@resi/contract';
import type { Kysely } from 'kysely';
import { containsText } from '../../db/like';
import type { Database } from '../../db/schema';
import type { LoginWindow } from './login-analysis-window';

export interface LoginLogFilter extends LoginWindow {
  /** Lower case; matched inside the user's email and inside the account as typed. */
  email?: string;
  ip?: string;
  result?: LoginResult;
}

export interface LoginLogListRow {
  id: number;
  created_at: string;
  user_id: number | null;
  email: string | null;
  account: string;
  ip: string | null;
  user_agent: string | null;
  result: LoginResult;
}

export interface LoginSummaryRows {
  days: Array<{ date: string; attempts: number; failures: number }>;
  topFailingIps: Array<{ ip: string | null; failures: number; accounts: number; lastAt: string }>;
  spreadAccounts: Array<{ account: string; ips: number; failures: number; lastAt: string }>;
}

const DAY_START = 'T00:00:00.000Z';
const DAY_END = 'T23:59:59.999Z';
/** Listed rather than `<> 'success'`, so the failures are read as ranges of the result index. */
const FAILURES = LOGIN_RESULTS.filter((r) => r !== 'success');

/**
 * Login analysis over `login_logs` (docs/data-model.md#login-logs): every read is bounded by a window of
 * days, walked on `login_logs_window_idx` (or `login_logs_result_idx` / `login_logs_ip_idx` when those
 * filters narrow it more). Users are joined only for the rows answered.
 */
export class LoginAnalysisRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** One page, newest first, and how many rows match. */
  async page(f: LoginLogFilter, page: number, pageSize: number): Promise<{ items: LoginLogListRow[]; total: number }> {
    const { n } = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const items = await this.rows(f)
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return { items, total: Number(n) };
  }

  /** Every matching row, newest first, for the CSV export. */
  all(f: LoginLogFilter): Promise<LoginLogListRow[]> {
    return this.rows(f).execute();
  }

  async summary(f: LoginLogFilter): Promise<LoginSummaryRows> {
    const days = await this.filtered(f)
      .select((eb) => [
        eb.fn<string>('substr', ['l.created_at', eb.val(1), eb.val(10)]).as('date'),
        eb.fn.countAll<number>().as('attempts'),
        eb.fn.sum<number>(eb.case().when('l.result', '<>', 'success').then(1).else(0).end()).as('failures'),
      ])
      .groupBy('date')
      .orderBy('date')
      .execute();
    const topFailingIps = await this.filtered(f)
      .where('l.result', 'in', FAILURES)
      .select((eb) => ['l.ip', eb.fn.countAll<number>().as('failures'), eb.fn.count<number>('l.account').distinct().as('accounts'), eb.fn.max('l.created_at').as('lastAt')])
      .groupBy('l.ip')
      .orderBy('failures', 'desc')
      .orderBy('lastAt', 'desc')
      .limit(LOGIN_ANALYSIS_TOP)
      .execute();
    // Failures only: a customer signing in from home, office and phone is no signal, and failures are
    // what the result index holds apart. Only accounts failed from more than one address.
    const spreadAccounts = await this.filtered(f)
      .where('l.result', 'in', FAILURES)
      .select((eb) => ['l.account', eb.fn.count<number>('l.ip').distinct().as('ips'), eb.fn.countAll<number>().as('failures'), eb.fn.max('l.created_at').as('lastAt')])
      .groupBy('l.account')
      .having((eb) => eb.fn.count('l.ip').distinct(), '>', 1)
      .orderBy('ips', 'desc')
      .orderBy('failures', 'desc')
      .orderBy('l.account')
      .limit(LOGIN_ANALYSIS_TOP)
      .execute();
    return {
      days: days.map((d) => ({ date: d.date, attempts: Number(d.attempts), failures: Number(d.failures ?? 0) })),
      topFailingIps: topFailingIps.map((r) => ({ ip: r.ip, failures: Number(r.failures), accounts: Number(r.accounts), lastAt: r.lastAt })),
      spreadAccounts: spreadAccounts.map((r) => ({ account: r.account, ips: Number(r.ips), failures: Number(r.failures), lastAt: r.lastAt })),
    };
  }

  private rows(f: LoginLogFilter) {
    return this.filtered(f)
      .leftJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.id', 'l.created_at', 'l.user_id', 'u.email', 'l.account', 'l.ip', 'l.user_agent', 'l.result'])
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc');
  }

  private filtered(f: LoginLogFilter) {
    let q = this.db
      .selectFrom('login_logs as l')
      .where('l.created_at', '>=', `${f.from}${DAY_START}`)
      .where('l.created_at', '<=', `${f.to}${DAY_END}`);
    if (f.ip) q = q.where('l.ip', '=', f.ip);
    if (f.result) q = q.where('l.result', '=', f.result);
    const email = f.email;
    if (email) {
      q = q.where((eb) => eb.or([containsText('l.account', email), eb('l.user_id', 'in', eb.selectFrom('users').select('id').where(containsText('email', email)))]));
    }
    return q;
  }
}
