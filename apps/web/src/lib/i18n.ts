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
 * A language comes in two chunks, each fetched when first needed: the public pages' texts (the first render
 * waits for them), and the console's texts with antd's, asked by the first page drawn with antd
 * (consoleTexts). A first visit downloads one language, and the login page only its part
 * (docs/console.md#languages-and-titles).
 */
type PackImport = () => Promise<{ default: LocalePack }>;
const PACKS: Record<Lang, PackImport> = {
  en: () => import('../locales/en'),
  'zh-cn': () => import('../locales/zh-cn'),
  zh: () => import('../locales/zh'),
};
const CONSOLE_PACKS: Record<Lang, PackImport> = {
  en: () => import('../locales/en-console'),
  'zh-cn': () => import('../locales/zh-cn-console'),
  zh: () => import('../locales/zh-console'),
};
const loaded = new Map<Lang, LocalePack>();
const consoleLoads = new Map<Lang, Promise<void>>();
const consoleLoaded = new Map<Lang, LocalePack>();
/** Set once a page drawn with antd was shown: from then on a language switch fetches both parts. */
let consoleWanted = false;

export const i18n = i18next.createInstance();

function addTexts(lang: Lang, pack: LocalePack): void {
  if (i18n.isInitialized) i18n.addResourceBundle(lang, 'translation', pack.resources, true, true);
}

/** The console part of a language (once); the promise carries its state for React's use(). */
function loadConsolePack(lang: Lang): Promise<void> {
  let load = consoleLoads.get(lang);
  if (!load) {
    const started = CONSOLE_PACKS[lang]().then(({ default: pack }) => {
      consoleLoaded.set(lang, pack);
      addTexts(lang, pack);
      Object.assign(started, { status: 'fulfilled', value: undefined });
    });
    // A failed fetch may be tried again (a later switch, a remount).
    started.catch(() => consoleLoads.delete(lang));
    load = started;
    consoleLoads.set(lang, load);
  }
  return load;
}

/**
 * The console's texts and antd's in the current language, for React's use() in the antd provider: a page
 * drawn with antd waits for them. Language switches fetch them as well from then on.
 */
export function consoleTexts(lang: Lang): Promise<void> {
  consoleWanted = true;
  return loadConsolePack(lang);
}

/** Fetches a language's pack (once; with the console part when it is in use) and adds its texts, without switching to it. */
export async function loadPack(lang: Lang): Promise<LocalePack> {
  const consolePart = consoleWanted ? loadConsolePack(lang) : null;
  let pack = loaded.get(lang);
  if (!pack) {
    pack = (await PACKS[lang]()).default;
    loaded.set(lang, pack);
    addTexts(lang, pack);
  }
  await consolePart;
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
      resources: { [lang]: { translation: { ...pack.resources, ...consoleLoaded.get(lang)?.resources } } },
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

/** antd's texts for a language whose console part is loaded (the current one, under the antd provider). */
export function antdLocale(lang: Lang): Locale | undefined {
  return consoleLoaded.get(lang)?.antd;
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
