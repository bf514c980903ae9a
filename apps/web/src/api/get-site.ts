import type { SiteInfo } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { FALLBACK_APP_NAME } from '@/lib/constants';

/** GET /api/site (public): product name for titles, support and tutorial links, the operator's own Learn and Toolbox pages. */
export async function getSite(): Promise<SiteInfo> {
  return (await api.get<SiteInfo>('/site')).data;
}

// Silent: until it answers (or if it cannot) the fallback name is shown, which is not worth a toast.
export const siteQueryOptions = () => queryOptions({ queryKey: ['site'], queryFn: getSite, staleTime: Infinity, meta: { silent: true } });

export const FALLBACK_SITE: SiteInfo = {
  appName: FALLBACK_APP_NAME,
  supportUrl: '',
  tutorialUrl: '',
  links: { knowledgeBase: null, faq: null, blog: null, toolbox: null },
  payMethods: [],
};

/** The site facts, with the fallback product name until they have loaded. */
export function useSite(): SiteInfo {
  const { data } = useQuery(siteQueryOptions());
  return data ?? FALLBACK_SITE;
}
