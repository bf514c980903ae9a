import { ALERT_DEFAULTS, type AlertSettingsBody, type AlertSettingsDto, type NoticeDto, type NoticeKind, type NoticesDto, normalizeLang } from '@resi/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { type Clock, DAY, addMs, iso } from '../../lib/clock';
import type { Mailer } from '../../mail/mailer';
import { AppError } from '../../shared/errors';
import { translator } from '../../shared/i18n';
import { UserRepository } from '../auth/user-repository';
import { TrafficRepository } from '../traffic/traffic-repository';
import { AlertRepository, type NoticeRow } from './alert-repository';

/** Where a crossing is announced to the customer's own systems (modules/webhooks), in the crossing's transaction. */
export interface AlertWebhooks {
  emit(userId: number, event: 'usage.threshold' | 'balance.empty', data: object, trx?: Transaction<Database>): Promise<unknown>;
}

/** Notices a list answers: the latest, as a console's bell shows them. */
const NOTICES_SHOWN = 50;

/** One threshold as measured now: whether it is crossed, and what the notice and the e-mail say. */
interface Condition {
  kind: NoticeKind;
  subjectId: number;
  threshold: number;
  crossed: boolean;
  /** For a cap at 100 % or more: whether the account is now refused (pause at cap) or goes on. */
  paused?: boolean;
  notice: Omit<NoticeRow, 'id' | 'read_at' | 'user_id' | 'kind' | 'threshold' | 'created_at'>;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes as the console shows them (1024 steps, two decimals): a 1 MB cap must not read "0 GB" in an e-mail. */
export function bytesText(bytes: number, locale: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 2 }).format(value)} ${UNITS[unit]}`;
}

const parse = (text: string | undefined, fallback: readonly number[]): number[] => (text === undefined ? [...fallback] : (JSON.parse(text) as number[]));

export function toNoticeDto(n: NoticeRow): NoticeDto {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: n.id,
    kind: n.kind,
    threshold: Number(n.threshold),
    balanceBytes: num(n.balance_bytes),
    accountId: n.account_id,
    accountUsername: n.account_username,
    usedBytes: num(n.used_bytes),
    limitBytes: num(n.limit_bytes),
    createdAt: n.created_at,
    readAt: n.read_at,
  };
}

/**
 * Usage alerts (docs/business-rules.md#usage-alerts). A job in one API process at a time (the jobs' lease)
 * measures the customers whose traffic moved since yesterday, or who have a crossing to re-arm, against their
 * thresholds. A threshold newly crossed is recorded once (its row's key), with a notice and a webhook in the
 * same transaction, then mailed; one no longer crossed (the balance topped up, the cap raised) is re-armed.
 */
export class AlertService {
  private readonly alerts: AlertRepository;
  private readonly users: UserRepository;
  private readonly traffic: TrafficRepository;

  constructor(
    private readonly d: { db: Kysely<Database>; clock: Clock; mailer: Mailer; appName: string; webhooks: AlertWebhooks; log: { error(obj: object, msg: string): void } },
  ) {
    this.alerts = new AlertRepository(d.db);
    this.users = new UserRepository(d.db);
    this.traffic = new TrafficRepository(d.db);
  }

  async settings(userId: number): Promise<AlertSettingsDto> {
    const row = await this.alerts.settings(userId);
    return {
      balanceBytesLeft: parse(row?.balance_bytes_left, ALERT_DEFAULTS.balanceBytesLeft),
      balancePercentLeft: parse(row?.balance_percent_left, ALERT_DEFAULTS.balancePercentLeft),
      accountCapPercent: parse(row?.account_cap_percent, ALERT_DEFAULTS.accountCapPercent),
    };
  }

  async saveSettings(userId: number, body: AlertSettingsBody): Promise<AlertSettingsDto> {
    const next = { ...(await this.settings(userId)), ...body };
    await this.alerts.saveSettings(
      userId,
      { balance_bytes_left: JSON.stringify(next.balanceBytesLeft), balance_percent_left: JSON.stringify(next.balancePercentLeft), account_cap_percent: JSON.stringify(next.accountCapPercent) },
      iso(this.d.clock.now()),
    );
    return next;
  }

  async notices(userId: number): Promise<NoticesDto> {
    const { items, unread } = await this.alerts.notices(userId, NOTICES_SHOWN);
    return { items: items.map(toNoticeDto), unread };
  }

  async markRead(userId: number, id: number): Promise<void> {
    if (!(await this.alerts.markRead(userId, id, iso(this.d.clock.now())))) throw new AppError('NOT_FOUND');
  }

  /** One pass over the customers whose usage moved; answers how many thresholds it found newly crossed. */
  async check(): Promise<number> {
    const now = this.d.clock.now();
    let crossed = 0;
    for (const userId of await this.alerts.candidates(iso(addMs(now, -DAY)).slice(0, 10))) crossed += await this.checkUser(userId, now);
    return crossed;
  }

  private async checkUser(userId: number, now: Date): Promise<number> {
    const [conditions, recorded] = await Promise.all([this.measure(userId, now), this.alerts.crossings(userId)]);
    const key = (c: { kind: string; subject_id?: number; subjectId?: number; threshold: number }) => `${c.kind}|${c.subject_id ?? c.subjectId}|${Number(c.threshold)}`;
    const open = new Set(recorded.map(key));
    const stillCrossed = new Set(conditions.filter((c) => c.crossed).map(key));
    // Re-armed: topped up, cap raised, account deleted, or the threshold taken out of the settings.
    for (const r of recorded) if (!stillCrossed.has(key(r))) await this.alerts.rearm(r);
    let fired = 0;
    for (const c of conditions) {
      if (!c.crossed || open.has(key(c))) continue;
      if (await this.fire(userId, c, now)) fired++;
    }
    return fired;
  }

  /** Every threshold of the user's settings, measured now. */
  private async measure(userId: number, now: Date): Promise<Condition[]> {
    const [settings, balance, lastGrant, accounts] = await Promise.all([
      this.settings(userId),
      this.traffic.balance(userId, iso(now)),
      this.alerts.lastGrantBytes(userId),
      this.alerts.cappedAccounts(userId),
    ]);
    const out: Condition[] = [];
    const balanceNotice = { balance_bytes: balance, account_id: null, account_username: null, used_bytes: null, limit_bytes: null };
    // A customer who never had traffic has nothing running out.
    if (lastGrant !== null) {
      for (const t of settings.balanceBytesLeft) out.push({ kind: 'balance.bytesLeft', subjectId: 0, threshold: t, crossed: balance <= t, notice: balanceNotice });
      for (const p of settings.balancePercentLeft) out.push({ kind: 'balance.percentLeft', subjectId: 0, threshold: p, crossed: balance <= (lastGrant * p) / 100, notice: balanceNotice });
      out.push({ kind: 'balance.empty', subjectId: 0, threshold: 0, crossed: balance <= 0, notice: balanceNotice });
    }
    for (const a of accounts) {
      for (const p of settings.accountCapPercent) {
        out.push({
          kind: 'account.cap',
          subjectId: a.id,
          threshold: p,
          crossed: a.limitBytes > 0 && a.usedBytes * 100 >= a.limitBytes * p,
          paused: p >= 100 ? a.pauseAtCap : undefined,
          notice: { balance_bytes: null, account_id: a.id, account_username: a.username, used_bytes: a.usedBytes, limit_bytes: a.limitBytes },
        });
      }
    }
    return out;
  }

  /** Records the crossing with its notice and webhook, then mails it; false when another run recorded it first. */
  private async fire(userId: number, c: Condition, now: Date): Promise<boolean> {
    const at = iso(now);
    const notice = await this.d.db.transaction().execute(async (trx) => {
      if (!(await this.alerts.cross({ user_id: userId, kind: c.kind, subject_id: c.subjectId, threshold: c.threshold, crossed_at: at }, trx))) return null;
      const row = await this.alerts.addNotice({ user_id: userId, kind: c.kind, threshold: c.threshold, created_at: at, ...c.notice }, trx);
      const dto = toNoticeDto(row);
      await this.d.webhooks.emit(userId, c.kind === 'balance.empty' ? 'balance.empty' : 'usage.threshold', { notice: dto }, trx);
      return dto;
    });
    if (!notice) return false;
    // After the commit: a mail server that is down must not undo the notice; the console still shows it.
    await this.mail(userId, notice, c.paused).catch((err: unknown) => this.d.log.error({ err, userId, kind: c.kind }, 'alerts: could not mail a crossing'));
    return true;
  }

  private async mail(userId: number, n: NoticeDto, paused: boolean | undefined): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) return;
    const lang = normalizeLang(user.lang);
    const t = translator(lang);
    const gb = (bytes: number | null) => bytesText(bytes ?? 0, lang === 'en' ? 'en' : lang === 'zh' ? 'zh-TW' : 'zh-CN');
    const params = {
      app: this.d.appName,
      threshold: n.kind === 'balance.bytesLeft' ? gb(n.threshold) : String(n.threshold),
      balance: gb(n.balanceBytes),
      account: n.accountUsername ?? '',
      used: gb(n.usedBytes),
      limit: gb(n.limitBytes),
      after: paused === undefined ? '' : t(paused ? 'mail.alert.paused' : 'mail.alert.goesOn'),
    };
    await this.d.mailer.send({ to: user.email, subject: t(`mail.alert.${n.kind}.subject`, params), text: t(`mail.alert.${n.kind}.body`, params) });
  }
}
