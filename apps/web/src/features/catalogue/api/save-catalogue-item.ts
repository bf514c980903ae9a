import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { catalogueKey, type CatalogueBody, type CatalogueDto, type CatalogueResource } from './catalogue-types';

/** POST /api/manage/<resource> (new item) or PUT /api/manage/<resource>/:id (existing one). */
export function saveCatalogueItem<R extends CatalogueResource>(resource: R, id: number | null, body: CatalogueBody<R>): Promise<Envelope<CatalogueDto<R>>> {
  return id === null ? api.post<CatalogueDto<R>>(`/manage/${resource}`, body) : api.put<CatalogueDto<R>>(`/manage/${resource}/${id}`, body);
}

export function useSaveCatalogueItem<R extends CatalogueResource>(resource: R) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: CatalogueBody<R> }) => saveCatalogueItem(resource, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: catalogueKey(resource) }),
  });
}
