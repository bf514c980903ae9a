import type { Locale } from 'antd/es/locale';

/** One language's texts, `{ <namespace>: {...} }` from the files src/locales/<lang>/<ns>.json, and antd's own texts. */
export interface LocalePack {
  resources: Record<string, Record<string, unknown>>;
  antd: Locale;
}

/** Keys the globbed files by their namespace (the file name). */
export function localePack(files: Record<string, Record<string, unknown>>, antd: Locale): LocalePack {
  const resources: LocalePack['resources'] = {};
  for (const [file, tree] of Object.entries(files)) {
    const ns = /([^/]+)\.json$/.exec(file)?.[1];
    if (ns) resources[ns] = tree;
  }
  return { resources, antd };
}
