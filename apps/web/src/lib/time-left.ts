import type { Lang } from '@resi/contract';
import { INTL_LOCALE } from '@/lib/format';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Time left until `expiresAt` as "in 3 days" / "in 5 hours" in the interface language; null once past. */
export function timeLeft(expiresAt: string, now: number, lang: Lang): string | null {
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return null;
  const format = new Intl.RelativeTimeFormat(INTL_LOCALE[lang], { numeric: 'always' });
  return left >= DAY_MS ? format.format(Math.floor(left / DAY_MS), 'day') : format.format(Math.max(1, Math.ceil(left / HOUR_MS)), 'hour');
}
