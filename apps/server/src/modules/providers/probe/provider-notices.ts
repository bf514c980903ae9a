import { GIB, normalizeLang } from '@resi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { type Clock, iso } from '../../../lib/clock';
import type { Mailer } from '../../../mail/mailer';
import { translator } from '../../../shared/i18n';
import { bytesText } from '../../alerts/alert-service';
import { type NoticeSubject, ProviderHealthRepository } from './provider-health-repository';

/** Share of a provider's monthly quota at which admins are told, once a month. */
export const QUOTA_NOTICE_SHARE = 0.8;

export interface NoticeDeps {
  db: Kysely<Database>;
  clock: Clock;
  mailer: Mailer;
  appName: string;
  log: { error(obj: object, msg: string): void };
}

type Notice = { kind: 'down'; provider: string; reason: string } | { kind: 'up'; provider: string } | { kind: 'quota'; provider: string; used: number; quota: number };

/**
 * The admins' mails about providers (docs/gateway.md#active-probes): a provider gone down or back up (its
 * `state` against `notified_state`), and a provider past 80 % of its monthly quota (once per UTC month,
 * `quota_notified_month`). Each notice is claimed by a conditional update before it is mailed, so two runs never
 * mail it twice; a mail server that is down loses that mail (logged), never repeats it.
 */
export class ProviderNotices {
  private readonly health: ProviderHealthRepository;

  constructor(private readonly d: NoticeDeps) {
    this.health = new ProviderHealthRepository(d.db);
  }

  /** One pass; answers how many notices it claimed (each mailed to every active admin). */
  async send(): Promise<number> {
    const subjects = await this.health.noticeSubjects();
    const now = this.d.clock.now();
    const month = iso(now).slice(0, 7);
    const quotaIds = subjects.filter((s) => s.monthlyQuotaGb !== null && s.quotaNotifiedMonth !== month).map((s) => s.id);
    const used = await this.health.bytesSince(quotaIds, `${month}-01`);
    const mails: Notice[] = [];
    for (const s of subjects) {
      const change = await this.claimChange(s);
      if (change) mails.push(change);
      const quota = await this.claimQuota(s, used.get(s.id) ?? 0, month, iso(now));
      if (quota) mails.push(quota);
    }
    if (mails.length > 0) await this.mailAdmins(mails);
    return mails.length;
  }

  private async claimChange(s: NoticeSubject): Promise<Notice | null> {
    if ((s.state !== 'down' && s.state !== 'up') || s.notifiedState === null || s.state === s.notifiedState) return null;
    if (!(await this.health.markNotified(s.id, s.notifiedState, s.state))) return null;
    return s.state === 'down' ? { kind: 'down', provider: s.name, reason: s.lastError ?? '' } : { kind: 'up', provider: s.name };
  }

  private async claimQuota(s: NoticeSubject, used: number, month: string, at: string): Promise<Notice | null> {
    if (s.monthlyQuotaGb === null || s.quotaNotifiedMonth === month) return null;
    const quota = s.monthlyQuotaGb * GIB;
    if (used < quota * QUOTA_NOTICE_SHARE) return null;
    if (!(await this.health.markQuotaNotified(s.id, month, at))) return null;
    return { kind: 'quota', provider: s.name, used, quota };
  }

  /** Every claimed notice to every active admin, in the admin's language. */
  private async mailAdmins(notices: Notice[]): Promise<void> {
    for (const admin of await this.health.activeAdmins()) {
      const lang = normalizeLang(admin.lang);
      const t = translator(lang);
      const locale = lang === 'en' ? 'en' : lang === 'zh' ? 'zh-TW' : 'zh-CN';
      for (const n of notices) {
        const params = {
          app: this.d.appName,
          ...n,
          ...(n.kind === 'quota' && { used: bytesText(n.used, locale), quota: bytesText(n.quota, locale), percent: String(Math.floor((n.used / n.quota) * 100)) }),
        };
        await this.d.mailer
          .send({ to: admin.email, subject: t(`mail.provider.${n.kind}.subject`, params), text: t(`mail.provider.${n.kind}.body`, params) })
          .catch((err: unknown) => this.d.log.error({ err, notice: n.kind, provider: n.provider }, 'providers: could not mail a notice'));
      }
    }
  }
}
