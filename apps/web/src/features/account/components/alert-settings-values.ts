import type { AlertSettingsBody, AlertSettingsDto } from '@resi/contract';
import { bytesToGb, gbToBytes } from '@/lib/format';

/** The alert form as typed: each list a set of tags, the balance in GB, the rest in percent. */
export interface AlertFormValues {
  balanceGb: string[];
  balancePercentLeft: string[];
  accountCapPercent: string[];
}

/**
 * Bytes as the form shows them, in GB: two decimals, or three significant digits under 0.1 GB, so a small threshold
 * set through the API (4 MB) reads 0.00391 GB rather than 0 GB.
 */
export function gbText(bytes: number): string {
  const gb = bytesToGb(bytes);
  return String(gb >= 0.1 ? Math.round(gb * 100) / 100 : Number(gb.toPrecision(3)));
}

/** The saved thresholds, or the contract's defaults (read-only lists), as the form shows them. */
export function toAlertForm(settings: Readonly<Record<keyof AlertSettingsDto, readonly number[]>>): AlertFormValues {
  return {
    balanceGb: settings.balanceBytesLeft.map(gbText),
    balancePercentLeft: settings.balancePercentLeft.map(String),
    accountCapPercent: settings.accountCapPercent.map(String),
  };
}

/** A tag as a number; what is not one stays NaN, which the contract's schema refuses with its message. */
const toNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/**
 * The balance list in bytes. A tag that still reads as a saved threshold keeps that threshold's exact bytes, so a
 * threshold of 1.004 GB set through the API, shown as 1 GB, is not moved by saving the percents.
 */
export function balanceBytes(tags: readonly string[], saved: readonly number[]): number[] {
  return tags.map((tag) => saved.find((bytes) => gbText(bytes) === tag.trim()) ?? gbToBytes(toNumber(tag)));
}

export function percents(tags: readonly string[]): number[] {
  return tags.map(toNumber);
}

/** The body of POST /api/user/alerts: all three lists, an empty one turning that kind of alert off. */
export function toAlertBody(values: AlertFormValues, saved: AlertSettingsDto): AlertSettingsBody {
  return {
    balanceBytesLeft: balanceBytes(values.balanceGb, saved.balanceBytesLeft),
    balancePercentLeft: percents(values.balancePercentLeft),
    accountCapPercent: percents(values.accountCapPercent),
  };
}
