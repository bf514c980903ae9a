import type { Lang } from '@resi/contract';
import { LANGS, normalizeLang } from '@resi/contract';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LocalePack } from '../locales/locale-pack';
import { DEFAULT_LANG } from './constants';
import { storage } from './storage';

/*
 * One i18next namespace; each file src/locales/<lang>/<ns>.json becomes the top-level key <ns>, so every
 * key reads fully dotted (`auth.login.submit`), and the contract's `validation.*` keys resolve as they are.
 * A language's texts (with antd's and dayjs's) are one chunk, fetched when that language is first used:
 * a first visit downloads one language, not three (docs/console.md#languages-and-titles).
 */
const PACKS: Record<Lang, () => Promise<{ default: LocalePack }>> = {
  en: () => import('../locales/en'),
  'zh-cn': () => import('../locales/zh-cn'),
  zh: () => import('../locales/zh'),
};
const loaded = new Map<Lang, LocalePack>();

export const i18n = i18next.createInstance();

/** Fetches a language's pack (once) and adds its texts, without switching to it. */
export async function loadPack(lang: Lang): Promise<LocalePack> {
  const known = loaded.get(lang);
  if (known) return known;
  const { default: pack } = await PACKS[lang]();
  loaded.set(lang, pack);
  if (i18n.isInitialized) i18n.addResourceBundle(lang, 'translation', pack.resources);
  return pack;
}

const DAYJS_LOCALE: Record<Lang, string> = { en: 'en', 'zh-cn': 'zh-cn', zh: 'zh-tw' };
const HTML_LANG: Record<Lang, string> = { en: 'en', 'zh-cn': 'zh-CN', zh: 'zh-TW' };

/** The language to start with: the stored one, else the default (en, docs/console.md#constants). */
export function initialLang(): Lang {
  return storage.getLang() ?? DEFAULT_LANG;
}

/** Loads the language's pack, then starts i18next with it; the first render waits for this. */
export async function initI18n(lang: Lang = initialLang()): Promise<typeof i18n> {
  const pack = await loadPack(lang);
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: { [lang]: { translation: pack.resources } },
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

/** antd's texts for a language whose pack is loaded (the current one always is). */
export function antdLocale(lang: Lang): Locale | undefined {
  return loaded.get(lang)?.antd;
}

let requested: Lang | null = null;

/**
 * Switches the interface language and remembers it (sessionStorage `lang`); texts re-render, no reload.
 * The pack is loaded first, so the re-render never shows raw keys. Rejects when the pack cannot be
 * fetched; the language then stays as it was.
 */
export async function setLanguage(lang: Lang): Promise<void> {
  requested = lang;
  await loadPack(lang);
  // A choice made while this pack was on its way wins over it.
  if (requested !== lang) return;
  storage.setLang(lang);
  applyLocaleSideEffects(lang);
  if (i18n.language !== lang) await i18n.changeLanguage(lang);
}

export const LANGUAGE_LABELS: Record<Lang, string> = { en: 'English', 'zh-cn': '简体中文', zh: '繁體中文' };
