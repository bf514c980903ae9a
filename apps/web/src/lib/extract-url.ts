import type { EXTRACT_SEPARATORS, ExtractFormat, ProxyProtocol } from '@resi/contract';

export type Separator = keyof typeof EXTRACT_SEPARATORS;

export interface LinkParams {
  num: number;
  protocol: ProxyProtocol;
  format: ExtractFormat;
  sep: Separator;
  /** [country, state?, city?] as the region picker gives it; empty: any. */
  region: string[];
  /** Minutes; null for the static IPs' link (their sessions are the IPs' own). */
  life: number | null;
}

/**
 * The extraction link a program calls (docs/gateway.md#extraction): `origin/api/extract?key=…` with only the
 * parameters that differ from the server's defaults, so the URL stays short to paste.
 */
export function extractUrl(origin: string, key: string, p: LinkParams): string {
  const q = new URLSearchParams({ key, num: String(p.num) });
  if (p.protocol !== 'http') q.set('protocol', p.protocol);
  if (p.format !== 'txt') q.set('format', p.format);
  if (p.sep !== 'crlf') q.set('sep', p.sep);
  const [country, state, city] = p.region;
  if (country) q.set('country', country);
  if (country && state) q.set('state', state);
  if (country && city) q.set('city', city);
  if (p.life !== null) q.set('life', String(p.life));
  return `${origin}/api/extract?${q.toString()}`;
}
