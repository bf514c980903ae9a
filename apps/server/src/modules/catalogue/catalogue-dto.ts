import type { BusinessDto, LocalizedText, PackageDto, RegionDto, StaticPriceDto, StaticRegionDto } from '@resi/contract';
import type { Selectable } from 'kysely';
import type { BusinessTable, PackageTable, RegionTable, StaticPriceTable, StaticRegionTable } from '../../db/schema';

interface NameColumns {
  name_en: string;
  name_zh_cn: string;
  name_zh: string;
}

export const toLocalized = (r: NameColumns): LocalizedText => ({ en: r.name_en, 'zh-cn': r.name_zh_cn, zh: r.name_zh });
export const nameColumns = (n: LocalizedText): NameColumns => ({ name_en: n.en, name_zh_cn: n['zh-cn'], name_zh: n.zh });

export const toPackageDto = (r: Selectable<PackageTable>): PackageDto => ({
  id: r.id,
  name: toLocalized(r),
  bytes: Number(r.bytes),
  price: Number(r.price),
  currency: r.currency,
  validityDays: r.validity_days,
  badge: (r.badge as PackageDto['badge']) ?? null,
  sort: r.sort,
  enabled: Boolean(r.enabled),
});

export const toRegionDto = (r: Selectable<RegionTable>): RegionDto => ({
  id: r.id,
  country: r.country,
  state: r.state,
  city: r.city,
  name: toLocalized(r),
  poolSize: r.pool_size,
  sort: r.sort,
  enabled: Boolean(r.enabled),
});

export const toStaticRegionDto = (r: Selectable<StaticRegionTable>): StaticRegionDto => ({
  id: r.id,
  country: r.country,
  city: r.city,
  name: toLocalized(r),
  sort: r.sort,
  enabled: Boolean(r.enabled),
});

export const toBusinessDto = (r: Selectable<BusinessTable>): BusinessDto => ({
  id: r.id,
  code: r.code,
  name: toLocalized(r),
  sort: r.sort,
  enabled: Boolean(r.enabled),
});

export const toStaticPriceDto = (r: Selectable<StaticPriceTable>): StaticPriceDto => ({
  id: r.id,
  regionId: r.region_id,
  businessId: r.business_id,
  days: r.days,
  price: Number(r.price),
  currency: r.currency,
});
