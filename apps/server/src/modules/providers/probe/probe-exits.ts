import { randomBytes } from 'node:crypto';
import { renderTemplate } from '../../../shared/provider-template';
import type { SupplyProvider } from '../provider-repository';

/** One exit of a provider to probe through: its upstream URL (null: the template cannot be rendered) and the country it stands for. */
export interface ProbeExit {
  url: string | null;
  /** The country this exit is asked for (upper case): the upstream's tag, or the region the template was rendered for. */
  asked: string | null;
}

/** Minutes a template's `{life}` asks for: a probe is one request, any value the provider accepts will do. */
const PROBE_LIFE_MINUTES = 10;

/**
 * The exit a provider's `turn`-th probe goes through: its upstreams in turn, then its template (rendered for
 * its first region, or none when it serves every region, with a fresh session so the provider hands out a
 * fresh exit). Null when the provider has neither.
 */
export function probeExit(p: SupplyProvider, turn: number): ProbeExit | null {
  const count = p.upstreams.length + (p.template === '' ? 0 : 1);
  if (count === 0) return null;
  const i = turn % count;
  const upstream = p.upstreams[i];
  if (upstream) return { url: upstream.url, asked: upstream.country?.toUpperCase() ?? null };
  const region = p.regions[0] ?? null;
  const session = `probe${randomBytes(6).toString('hex')}`;
  return { url: renderTemplate(p.template, { country: region, state: null, city: null, session, life: PROBE_LIFE_MINUTES }), asked: region?.toUpperCase() ?? null };
}
