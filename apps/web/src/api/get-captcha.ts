import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '@/lib/api-client';

export interface Captcha {
  id: string;
  svg: string;
}

/** GET /api/captcha → `{id, svg}`; each captcha answers one check only. */
export async function getCaptcha(): Promise<Captcha> {
  return (await api.get<Captcha>('/captcha')).data;
}

/** The SVG as an image source (never injected as markup). */
export function captchaImageSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

// Silent: a failed picture shows its own retry button.
const captchaQueryOptions = (scope: string) =>
  queryOptions({ queryKey: ['captcha', scope], queryFn: getCaptcha, staleTime: Infinity, gcTime: 0, meta: { silent: true } });

/** A captcha per form (`scope`); `refresh()` after every attempt that used it, and on click. */
export function useCaptcha(scope: string) {
  const queryClient = useQueryClient();
  const query = useQuery(captchaQueryOptions(scope));
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['captcha', scope] });
  }, [queryClient, scope]);
  return {
    id: query.data?.id ?? null,
    src: query.data ? captchaImageSrc(query.data.svg) : null,
    loading: query.isFetching,
    failed: query.isError,
    refresh,
  };
}
