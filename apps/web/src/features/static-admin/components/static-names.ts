import type { BusinessDto, Lang, StaticRegionDto } from '@resi/contract';
import { localizedName } from '@/lib/format';

/** The catalogue names the inventory shows in place of ids, in the interface language. */
export interface StaticNames {
  regions: StaticRegionDto[];
  business: BusinessDto[];
}

export function namer({ regions, business }: StaticNames, lang: Lang) {
  const regionById = new Map(regions.map((r) => [r.id, localizedName(r.name, lang)]));
  const businessById = new Map(business.map((b) => [b.id, localizedName(b.name, lang)]));
  return {
    region: (id: number) => regionById.get(id) ?? `#${id}`,
    business: (id: number) => businessById.get(id) ?? `#${id}`,
    regionOptions: regions.map((r) => ({ value: r.id, label: localizedName(r.name, lang) })),
    businessOptions: business.map((b) => ({ value: b.id, label: localizedName(b.name, lang) })),
  };
}
export type Namer = ReturnType<typeof namer>;
