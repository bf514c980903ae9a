import { normalizeLang } from '@resi/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ArticleCatalogue } from '@/lib/article-catalogue';

/** A catalogue's articles in the interface language; the files never change while the page is open. */
export function useArticles(name: string, catalogue: ArticleCatalogue) {
  const { i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  // Silent: a chunk that failed to load gets the inline retry below, not a toast.
  return useQuery({ queryKey: ['articles', name, lang], queryFn: () => catalogue.loadAll(lang), staleTime: Infinity, meta: { silent: true } });
}
