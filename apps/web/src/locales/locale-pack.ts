import type { Locale } from 'antd/es/locale';

/**
 * Texts of the pages drawn without antd (login, register, the loading and error states, page titles): what
 * src/locales/<lang>.ts holds. The other namespaces, with antd's texts, are src/locales/<lang>-console.ts,
 * fetched with the first page drawn with antd (docs/console.md#languages-and-titles).
 */
export const PUBLIC_NAMESPACES = ['auth', 'common', 'error', 'routes', 'tips', 'validation'] as const;

/** One language's texts, `{ <namespace>: {...} }` from the files src/locales/<lang>/<ns>.json, and antd's own texts. */
export interface LocalePack {
  resources: Record<string, Record<string, unknown>>;
  /** In the console part only. */
  antd?: Locale;
}

/** Keys the globbed files by their namespace (the file name). */
export function localePack(files: Record<string, Record<string, unknown>>, antd?: Locale): LocalePack {
  const resources: LocalePack['resources'] = {};
  for (const [file, tree] of Object.entries(files)) {
    const ns = /([^/]+)\.json$/.exec(file)?.[1];
    if (ns) resources[ns] = tree;
  }
  return { resources, antd };
}
