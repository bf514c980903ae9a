import type { StaticPriceDto, StaticProxyDto } from '@resi/contract';

export interface RenewOption {
  days: number;
  /** The sum over the IPs of each one's list price for these days. */
  total: number;
  currency: string;
}

/**
 * The renewal choices for some IPs: the numbers of days with a listed price for every IP's region and
 * business line (each IP is priced from the current list, docs/business-rules.md#static-residential-ips).
 */
export function renewOptions(proxies: readonly Pick<StaticProxyDto, 'regionId' | 'businessId'>[], prices: readonly StaticPriceDto[]): RenewOption[] {
  if (proxies.length === 0) return [];
  const priceOf = (p: Pick<StaticProxyDto, 'regionId' | 'businessId'>, days: number) =>
    prices.find((x) => x.regionId === p.regionId && x.businessId === p.businessId && x.days === days);
  const days = [...new Set(prices.map((p) => p.days))].sort((a, b) => a - b);
  const options: RenewOption[] = [];
  for (const d of days) {
    const each = proxies.map((p) => priceOf(p, d));
    if (each.some((x) => x === undefined)) continue;
    options.push({ days: d, total: each.reduce((sum, x) => sum + x!.price, 0), currency: each[0]!.currency });
  }
  return options;
}
