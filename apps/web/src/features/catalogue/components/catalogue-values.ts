import type { BusinessDto, LocalizedText, PackageDto, RegionDto, StaticPriceDto, StaticRegionDto } from '@resi/contract';
import { bytesToGb, fromMinorUnits, gbToBytes, toMinorUnits } from '@/lib/format';
import type { CatalogueBody } from '../api/catalogue-types';

/*
 * Forms show what an operator thinks in (GB, dollars, codes typed loosely); the API takes bytes, cents and
 * exact codes. These pairs convert both ways, and only send the fields the server's strict body accepts.
 */

const EMPTY_NAME: LocalizedText = { en: '', 'zh-cn': '', zh: '' };

function trimName(name: LocalizedText): LocalizedText {
  return { en: name.en.trim(), 'zh-cn': name['zh-cn'].trim(), zh: name.zh.trim() };
}

/** Empty optional code → null, otherwise lower-case. */
function optionalCode(value: string | null | undefined): string | null {
  const text = (value ?? '').trim().toLowerCase();
  return text === '' ? null : text;
}

// ---------- packages ----------

export interface PackageValues {
  name: LocalizedText;
  gb: number;
  price: number;
  validityDays: number;
  badge: PackageDto['badge'];
  sort: number;
  enabled: boolean;
}

export const newPackageValues = (): PackageValues => ({ name: { ...EMPTY_NAME }, gb: 10, price: 10, validityDays: 30, badge: null, sort: 0, enabled: true });

export function packageValues(dto: PackageDto): PackageValues {
  return {
    name: dto.name,
    gb: bytesToGb(dto.bytes),
    price: fromMinorUnits(dto.price, dto.currency),
    validityDays: dto.validityDays,
    badge: dto.badge,
    sort: dto.sort,
    enabled: dto.enabled,
  };
}

export function packageBody(values: PackageValues, currency: string): CatalogueBody<'goods'> {
  return {
    name: trimName(values.name),
    bytes: gbToBytes(values.gb),
    price: toMinorUnits(values.price, currency),
    validityDays: values.validityDays,
    badge: values.badge ?? null,
    sort: values.sort ?? 0,
    enabled: values.enabled,
  };
}

// ---------- rotating regions ----------

export interface RegionValues {
  country: string;
  state: string | null;
  city: string | null;
  name: LocalizedText;
  poolSize: number;
  sort: number;
  enabled: boolean;
}

export const newRegionValues = (): RegionValues => ({ country: '', state: null, city: null, name: { ...EMPTY_NAME }, poolSize: 0, sort: 0, enabled: true });

export function regionValues(dto: RegionDto): RegionValues {
  return { country: dto.country, state: dto.state, city: dto.city, name: dto.name, poolSize: dto.poolSize, sort: dto.sort, enabled: dto.enabled };
}

export function regionBody(values: RegionValues): CatalogueBody<'region'> {
  return {
    country: values.country.trim().toUpperCase(),
    state: optionalCode(values.state),
    city: optionalCode(values.city),
    name: trimName(values.name),
    poolSize: values.poolSize ?? 0,
    sort: values.sort ?? 0,
    enabled: values.enabled,
  };
}

// ---------- static regions ----------

export interface StaticRegionValues {
  country: string;
  city: string | null;
  name: LocalizedText;
  sort: number;
  enabled: boolean;
}

export const newStaticRegionValues = (): StaticRegionValues => ({ country: '', city: null, name: { ...EMPTY_NAME }, sort: 0, enabled: true });

export function staticRegionValues(dto: StaticRegionDto): StaticRegionValues {
  return { country: dto.country, city: dto.city, name: dto.name, sort: dto.sort, enabled: dto.enabled };
}

export function staticRegionBody(values: StaticRegionValues): CatalogueBody<'static-region'> {
  return { country: values.country.trim().toUpperCase(), city: optionalCode(values.city), name: trimName(values.name), sort: values.sort ?? 0, enabled: values.enabled };
}

// ---------- business lines ----------

export interface BusinessValues {
  code: string;
  name: LocalizedText;
  sort: number;
  enabled: boolean;
}

export const newBusinessValues = (): BusinessValues => ({ code: '', name: { ...EMPTY_NAME }, sort: 0, enabled: true });

export function businessValues(dto: BusinessDto): BusinessValues {
  return { code: dto.code, name: dto.name, sort: dto.sort, enabled: dto.enabled };
}

export function businessBody(values: BusinessValues): CatalogueBody<'business'> {
  return { code: values.code.trim().toLowerCase(), name: trimName(values.name), sort: values.sort ?? 0, enabled: values.enabled };
}

// ---------- static prices ----------

export interface StaticPriceValues {
  regionId: number | undefined;
  businessId: number | undefined;
  days: number;
  price: number;
}

export const newStaticPriceValues = (): StaticPriceValues => ({ regionId: undefined, businessId: undefined, days: 30, price: 5 });

export function staticPriceValues(dto: StaticPriceDto): StaticPriceValues {
  return { regionId: dto.regionId, businessId: dto.businessId, days: dto.days, price: fromMinorUnits(dto.price, dto.currency) };
}

export function staticPriceBody(values: StaticPriceValues, currency: string): CatalogueBody<'static-price'> {
  return { regionId: values.regionId ?? 0, businessId: values.businessId ?? 0, days: values.days, price: toMinorUnits(values.price, currency) };
}

/** The currency new prices are in: the one the catalogue already uses (the server sets it), USD when empty. */
export function catalogueCurrency(items: ReadonlyArray<{ currency: string }> | undefined): string {
  return items?.[0]?.currency ?? 'USD';
}
