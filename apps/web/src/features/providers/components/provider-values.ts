import type { ProviderBody, ProviderDto } from '@resi/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { fromMinorUnits, toMinorUnits } from '@/lib/format';
import { formatUpstreamLines, parseUpstreamLines, type UpstreamLineError } from './upstream-lines';

/*
 * The provider form holds what an operator thinks in — upstreams as lines of text, the cost per GB in currency
 * units, the date it applies from as a picker's day — and converts to the body the contract checks.
 */

export interface ProviderValues {
  name: string;
  /** Returned masked; sent back unchanged it keeps the stored password. */
  template: string;
  /** One upstream per line (upstream-lines.ts). */
  upstreams: string;
  regions: string[];
  priority: number;
  weight: number;
  /** Cost of a GB in currency units (`1.5` USD), as typed. */
  cost: number | null;
  currency: string;
  costFrom: Dayjs | null;
  monthlyQuotaGb: number | null;
  status: ProviderDto['status'];
}

/** Today as a UTC calendar day (the cost's `from` is a UTC date), at local midnight so the picker shows that day. */
export function utcToday(): Dayjs {
  return dayjs(new Date().toISOString().slice(0, 10));
}

export function newProviderValues(currency: string): ProviderValues {
  return { name: '', template: '', upstreams: '', regions: [], priority: 1, weight: 100, cost: null, currency, costFrom: utcToday(), monthlyQuotaGb: null, status: 'enabled' };
}

export function providerValues(dto: ProviderDto): ProviderValues {
  const cost = dto.costPerGb;
  const from = dayjs(cost.from, 'YYYY-MM-DD', true);
  return {
    name: dto.name,
    template: dto.template,
    upstreams: formatUpstreamLines(dto.upstreams),
    regions: dto.regions,
    priority: dto.priority,
    weight: dto.weight,
    cost: fromMinorUnits(cost.amount, cost.currency),
    currency: cost.currency,
    // The cost in force keeps its day unless the cost itself is changed (the dialog moves it to today then).
    costFrom: from.isValid() ? from : utcToday(),
    monthlyQuotaGb: dto.monthlyQuotaGb,
    status: dto.status,
  };
}

/** Regions as typed into the tags select: trimmed, upper-case, each once. */
export function normalizeRegions(regions: readonly string[] | undefined): string[] {
  return [...new Set((regions ?? []).map((r) => r.trim().toUpperCase()).filter((r) => r !== ''))];
}

/**
 * The form's values → the request body, before the contract's schema checks it (the caller parses it with
 * `providerBody`). A bad upstream line is reported, never sent as an empty list (that would drop them all).
 */
export function providerInput(values: ProviderValues): { ok: true; input: ProviderBody } | { ok: false; error: UpstreamLineError } {
  const parsed = parseUpstreamLines(values.upstreams ?? '');
  if (!parsed.ok) return parsed;
  const currency = (values.currency ?? '').trim().toUpperCase();
  return {
    ok: true,
    input: {
      name: (values.name ?? '').trim(),
      template: (values.template ?? '').trim(),
      upstreams: parsed.upstreams,
      regions: normalizeRegions(values.regions),
      priority: values.priority,
      weight: values.weight,
      costPerGb: { amount: toMinorUnits(values.cost ?? Number.NaN, currency), currency, from: values.costFrom ? values.costFrom.format('YYYY-MM-DD') : '' },
      monthlyQuotaGb: typeof values.monthlyQuotaGb === 'number' ? values.monthlyQuotaGb : null,
      status: values.status,
    },
  };
}

/** The form field a contract issue belongs to (its path in the body). */
export function fieldOfIssue(path: readonly PropertyKey[]): keyof ProviderValues {
  const [head, sub] = path;
  if (head === 'costPerGb') return sub === 'currency' ? 'currency' : sub === 'from' ? 'costFrom' : 'cost';
  const fields: readonly string[] = ['name', 'template', 'upstreams', 'regions', 'priority', 'weight', 'monthlyQuotaGb', 'status'];
  return typeof head === 'string' && fields.includes(head) ? (head as keyof ProviderValues) : 'name';
}
