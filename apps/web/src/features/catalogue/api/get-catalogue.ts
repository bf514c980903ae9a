import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { catalogueKey, type CatalogueDto, type CatalogueResource } from './catalogue-types';

/** GET /api/manage/<resource> → every item, disabled ones included, in the server's order. */
export async function getCatalogue<R extends CatalogueResource>(resource: R): Promise<CatalogueDto<R>[]> {
  return (await api.get<{ items: CatalogueDto<R>[] }>(`/manage/${resource}`)).data.items;
}

export const catalogueQueryOptions = <R extends CatalogueResource>(resource: R) =>
  queryOptions({ queryKey: catalogueKey(resource), queryFn: () => getCatalogue(resource), staleTime: 0 });

export function useCatalogue<R extends CatalogueResource>(resource: R) {
  return useQuery(catalogueQueryOptions(resource));
}
