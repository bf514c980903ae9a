import { type Lang, normalizeLang } from '@resi/contract';
import i18next, { type TFunction } from 'i18next';
import en from '../locales/en.json';
import zh from '../locales/zh.json';
import zhCn from '../locales/zh-cn.json';

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { translation: en }, 'zh-cn': { translation: zhCn }, zh: { translation: zh } },
  lng: 'en',
  fallbackLng: 'en',
  // Keys like 'zh-cn' must not be split into a language and region.
  load: 'currentOnly',
  lowerCaseLng: true,
  interpolation: { escapeValue: false },
  initAsync: false,
});

export const serverCatalogues = { en, 'zh-cn': zhCn, zh } as const;

/** One per language, built on first use: every request takes one. */
const translators = new Map<Lang, TFunction>();

export function translator(lang: Lang): TFunction {
  let t = translators.get(lang);
  if (!t) translators.set(lang, (t = i18n.getFixedT(lang)));
  return t;
}

export function langFromHeader(header: string | string[] | undefined): Lang {
  return normalizeLang(Array.isArray(header) ? header[0] : header);
}
