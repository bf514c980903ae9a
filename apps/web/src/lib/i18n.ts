import type { Lang } from '@resi/contract';
import { LANGS, normalizeLang } from '@resi/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANG } from './constants';
import { storage } from './storage';

/*
 * One i18next namespace; each file src/locales/<lang>/<ns>.json becomes the top-level key <ns>, so every
 * key reads fully dotted (`auth.login.submit`), and the contract's `validation.*` keys resolve as they are.
 */
type LocaleTree = Record<string, unknown>;
const files = import.meta.glob<LocaleTree>('../locales/*/*.json', { eager: true, import: 'default' });

/** `{ en: { auth: {...}, common: {...} }, ... }` from the locale files. */
export function localeTrees(): Record<string, Record<string, LocaleTree>> {
  const trees: Record<string, Record<string, LocaleTree>> = {};
  for (const [file, tree] of Object.entries(files)) {
    const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!match) continue;
    const [, lang, ns] = match as unknown as [string, string, string];
    (trees[lang] ??= {})[ns] = tree;
  }
  return trees;
}

function resources(): Resource {
  const out: Resource = {};
  for (const [lang, namespaces] of Object.entries(localeTrees())) out[lang] = { translation: namespaces };
  return out;
}

const DAYJS_LOCALE: Record<Lang, string> = { en: 'en', 'zh-cn': 'zh-cn', zh: 'zh-tw' };
const HTML_LANG: Record<Lang, string> = { en: 'en', 'zh-cn': 'zh-CN', zh: 'zh-TW' };

export const i18n = i18next.createInstance();

/** The language to start with: the stored one, else the default (en, docs/console.md#constants). */
export function initialLang(): Lang {
  return storage.getLang() ?? DEFAULT_LANG;
}

export function initI18n(lang: Lang = initialLang()): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: resources(),
      lng: lang,
      fallbackLng: DEFAULT_LANG,
      supportedLngs: [...LANGS],
      // 'zh-cn' must stay 'zh-cn', not be reduced to 'zh' (which is Traditional here).
      lowerCaseLng: true,
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
  }
  applyLocaleSideEffects(lang);
  return i18n;
}

export function currentLang(): Lang {
  return normalizeLang(i18n.language);
}

function applyLocaleSideEffects(lang: Lang): void {
  dayjs.locale(DAYJS_LOCALE[lang]);
  if (typeof document !== 'undefined') document.documentElement.lang = HTML_LANG[lang];
}

/** Switches the interface language and remembers it (sessionStorage `lang`); texts re-render, no reload. */
export function setLanguage(lang: Lang): void {
  storage.setLang(lang);
  applyLocaleSideEffects(lang);
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
}

export const LANGUAGE_LABELS: Record<Lang, string> = { en: 'English', 'zh-cn': '简体中文', zh: '繁體中文' };
