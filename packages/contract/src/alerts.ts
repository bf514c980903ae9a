import { z } from 'zod';

/*
 * Usage alerts and notices (DESIGN §14; docs/business-rules.md#usage-alerts): thresholds on the traffic
 * balance and on proxy accounts' caps; each crossing leaves a notice in the console, sends one e-mail and a
 * `usage.threshold` (or `balance.empty`) webhook, and does not repeat until the balance or the cap is raised.
 */

export const GIB = 1024 ** 3;
/** What a customer who never changed them is alerted at. */
export const ALERT_DEFAULTS = { balanceBytesLeft: [GIB], balancePercentLeft: [] as number[], accountCapPercent: [80, 100] } as const;
/** Thresholds of one kind a customer may set. */
export const ALERT_THRESHOLDS_MAX = 5;

export const alertSettingsDto = z.object({
  /** Alert when the balance falls to or below each of these many bytes. */
  balanceBytesLeft: z.array(z.number().int()),
  /** Alert when the balance falls to or below each percent of the latest traffic purchase. */
  balancePercentLeft: z.array(z.number().int()),
  /** Alert when a capped proxy account has used each percent of its cap. */
  accountCapPercent: z.array(z.number().int()),
});
export type AlertSettingsDto = z.infer<typeof alertSettingsDto>;

const thresholds = (min: number, max: number, error: string) =>
  z
    .array(z.number({ error }).int({ error }).min(min, { error }).max(max, { error }), { error })
    .max(ALERT_THRESHOLDS_MAX, { error: 'validation.alertThresholdsMax' })
    .transform((list) => [...new Set(list)].sort((a, b) => a - b));

/** Each list replaces the saved one; a list left out stays as it is; an empty list turns that kind off. */
export const alertSettingsBody = z.strictObject({
  balanceBytesLeft: thresholds(1, 1024 ** 5, 'validation.alertBytes').optional(),
  balancePercentLeft: thresholds(1, 99, 'validation.alertPercentLeft').optional(),
  accountCapPercent: thresholds(1, 100, 'validation.alertCapPercent').optional(),
});
export type AlertSettingsBody = z.infer<typeof alertSettingsBody>;

export const NOTICE_KINDS = ['balance.bytesLeft', 'balance.percentLeft', 'balance.empty', 'account.cap'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const noticeDto = z.object({
  id: z.number().int(),
  kind: z.enum(NOTICE_KINDS),
  /** The threshold crossed (bytes or percent), and what was measured: the balance left, or the account's use. */
  threshold: z.number().int(),
  balanceBytes: z.number().int().nullable(),
  accountId: z.number().int().nullable(),
  accountUsername: z.string().nullable(),
  usedBytes: z.number().int().nullable(),
  limitBytes: z.number().int().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NoticeDto = z.infer<typeof noticeDto>;

export const noticesDto = z.object({ items: z.array(noticeDto), unread: z.number().int() });
export type NoticesDto = z.infer<typeof noticesDto>;
