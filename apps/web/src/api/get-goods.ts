import type { PackageDto, StaticPriceDto } from '@resi/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface Goods {
  packages: PackageDto[];
  staticPrices: StaticPriceDto[];
}

/** GET /api/goods → the enabled packages, sorted, and the static price list. */
export async function getGoods(): Promise<Goods> {
  return (await api.get<Goods>('/goods')).data;
}

export const goodsQueryOptions = () => queryOptions({ queryKey: ['goods'], queryFn: getGoods });

/**
 * The shop's currency: the catalogue's prices carry it (the console is told it nowhere else). Null when nothing is
 * for sale.
 */
export function shopCurrency(goods: Goods): string | null {
  return goods.packages[0]?.currency ?? goods.staticPrices[0]?.currency ?? null;
}

export function useGoods() {
  return useQuery(goodsQueryOptions());
}
