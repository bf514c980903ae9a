import type { Envelope } from '@resi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { catalogueKey, type CatalogueResource } from './catalogue-types';

/** DELETE /api/manage/<resource>/:id. Orders keep their own copy of what they bought. */
export function deleteCatalogueItem(resource: CatalogueResource, id: number): Promise<Envelope<unknown>> {
  return api.delete<unknown>(`/manage/${resource}/${id}`);
}

export function useDeleteCatalogueItem(resource: CatalogueResource) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteCatalogueItem(resource, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: catalogueKey(resource) }),
  });
}
