import type { Lang, LocalizedText } from '@resi/contract';
import dayjs from 'dayjs';

/*
 * Display of the API's units (docs/api.md#units): traffic in integer bytes, money in integer minor units plus a
 * currency, times as ISO strings. Every screen formats through here so a number reads the same everywhere.
 */

/** Traffic is sold in binary units: 1 GB here is 1024³ bytes, as the server's catalogue counts it. */
export const BYTES_PER_GB = 1024 ** 3;
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Intl locale for each console language. */
export const INTL_LOCALE: Record<Lang, string> = { en: 'en-US', 'zh-cn': 'zh-CN', zh: 'zh-TW' };

/** `10737418240` → `10 GB`; at most two decimals, trailing zeros dropped (`1.5 GB`). */
export function formatBytes(bytes: number, lang: Lang = 'en'): string {
  return bytesIn(bytes, lang, 2, false);
}

/**
 * What is left of a balance: three decimals, cut rather than rounded, so it never shows more than is left and
 * moves with every megabyte used of a 10 GB balance (`9.997 GB` after 2.86 MB, where `formatBytes` still says
 * `10 GB`).
 */
export function formatBalance(bytes: number, lang: Lang = 'en'): string {
  return bytesIn(bytes, lang, 3, true);
}

/**
 * Intl formatters are slow to make and a chart or a list formats hundreds of values: one is kept per locale and
 * options (a profile of Account Home's first render spent 13 ms making them). A code Intl refuses (an unknown
 * currency) throws here as before and is not kept.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A count in the language's notation: `12,345`. */
export function formatCount(value: number, lang: Lang): string {
  return numberFormat(INTL_LOCALE[lang]).format(value);
}

const displayNames = new Map<string, Intl.DisplayNames>();
function regionNames(locale: string): Intl.DisplayNames {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region' });
    displayNames.set(locale, names);
  }
  return names;
}

function bytesIn(bytes: number, lang: Lang, decimals: number, cut: boolean): string {
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : decimals;
  // Cut by hand (Intl's roundingMode is newer than the ES2022 library this builds against); the epsilon keeps
  // 9.997 from becoming 9.996 through 9.997 × 1000 = 9996.999….
  if (cut) value = Math.floor(value * 10 ** digits + 1e-9) / 10 ** digits;
  const number = numberFormat(INTL_LOCALE[lang], { maximumFractionDigits: digits }).format(value);
  return `${sign}${number} ${UNITS[unit]}`;
}

export function bytesToGb(bytes: number): number {
  return bytes / BYTES_PER_GB;
}

/** GB as typed in a form → whole bytes (what the API takes). */
export function gbToBytes(gb: number): number {
  return Math.round(gb * BYTES_PER_GB);
}

/** Digits after the decimal point of a currency's minor unit: USD 2, JPY 0, an unknown code 2. */
export function currencyDigits(currency: string): number {
  try {
    return numberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units → currency units: `2500` USD → `25`. */
export function fromMinorUnits(amount: number, currency: string): number {
  return amount / 10 ** currencyDigits(currency);
}

/** Currency units as typed in a form → whole minor units: `25.5` USD → `2550`. */
export function toMinorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** currencyDigits(currency));
}

/** `2500`, `USD` → `$25.00` (en) / `US$25.00` (zh) in the language's own notation. */
export function formatMoney(amount: number, currency: string, lang: Lang = 'en'): string {
  const value = fromMinorUnits(amount, currency);
  try {
    return numberFormat(INTL_LOCALE[lang], { style: 'currency', currency }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** Price of one GB of a package, in minor units (for "$2.50 / GB"). */
export function pricePerGb(price: number, bytes: number): number {
  return bytes > 0 ? Math.round(price / bytesToGb(bytes)) : 0;
}

/** Local date and time, minutes precision; `null` for an absent time. */
export function formatDateTime(value: string | null | undefined): string | null {
  return value ? dayjs(value).format('YYYY-MM-DD HH:mm') : null;
}

export function formatDate(value: string | null | undefined): string | null {
  return value ? dayjs(value).format('YYYY-MM-DD') : null;
}

/** An operator-typed name in the interface language (each language is required, so no fallback chain). */
export function localizedName(name: LocalizedText, lang: Lang): string {
  return name[lang] || name.en;
}

/** A date range picker's value → the `from`/`to` query of list endpoints (YYYY-MM-DD, both inclusive). */
export function dateRangeQuery(range: readonly [dayjs.Dayjs | null, dayjs.Dayjs | null] | null | undefined): { from?: string; to?: string } {
  const [start, end] = range ?? [null, null];
  return {
    from: start ? start.format('YYYY-MM-DD') : undefined,
    to: end ? end.format('YYYY-MM-DD') : undefined,
  };
}

/** `US` → `United States` / `美国` / `美國` in the interface language; the code itself if the runtime has no name. */
export function countryName(code: string, lang: Lang): string {
  const upper = code.toUpperCase();
  try {
    return regionNames(INTL_LOCALE[lang]).of(upper) ?? upper;
  } catch {
    return upper;
  }
}
