export const LANGS = ['en', 'zh-cn', 'zh'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

/** Maps an `Api-Lang` header or `?lang=` value to a supported language (`zh-tw` is Traditional, i.e. `zh`). */
export function normalizeLang(value: unknown): Lang {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (v === 'zh-tw' || v === 'zh-hant' || v === 'zh-hk') return 'zh';
  if (v === 'zh-hans') return 'zh-cn';
  return (LANGS as readonly string[]).includes(v) ? (v as Lang) : DEFAULT_LANG;
}
