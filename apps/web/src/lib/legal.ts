import type { Lang } from '@resi/contract';
import { BASE_PATH } from './constants';

/** Static legal pages (apps/web/public/legal), one per language, outside the SPA and its guard. */
export function legalUrl(page: 'terms' | 'privacy' | 'tutorial', lang: Lang): string {
  return `${BASE_PATH}legal/${page}.${lang}.html`;
}

/** A link to one of our own per-language pages (`….en.html` under /manage/legal/) follows the language. */
export function localizedDocUrl(url: string, lang: Lang): string {
  const match = /^(\/manage\/legal\/[a-z-]+)\.(en|zh-cn|zh)\.html$/.exec(url);
  return match ? `${match[1]}.${lang}.html` : url;
}
