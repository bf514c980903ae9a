import { serverCatalogues } from '../src/shared/i18n';

export type CatalogueLang = keyof typeof serverCatalogues;
export const CATALOGUE_LANGS = Object.keys(serverCatalogues) as CatalogueLang[];

/** The catalogue text for a dotted key with `{{var}}` filled in and `$t(key)` nested as i18next does: what a response message must equal. */
export function text(lang: CatalogueLang, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = serverCatalogues[lang];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    if (!(name in vars)) throw new Error(`text ${lang}:${key} needs {{${name}}}`);
    return String(vars[name]);
  }).replace(/\$t\(([\w.-]+)\)/g, (_m, nested: string) => text(lang, nested, vars));
}
