import { proxyLinesQuery, STICKY_DEFAULT_LIFE, type LineFormat, type ProxyLinesQuery, type ProxyProtocol } from '@resi/contract';
import { regionChoice } from './region-options';

/** What the Get Proxy form holds; the region is the cascader's path. */
export interface LineSettings {
  accountId: number | undefined;
  protocol: ProxyProtocol;
  region: string[];
  sticky: boolean;
  lifeMinutes: number | null;
  count: number | null;
  format: LineFormat;
}

export const DEFAULT_LINE_SETTINGS: LineSettings = {
  accountId: undefined,
  protocol: 'http',
  region: [],
  sticky: false,
  lifeMinutes: STICKY_DEFAULT_LIFE,
  count: 10,
  format: 'host:port:user:pass',
};

/**
 * The form as the export endpoint's query, checked by the contract's own schema; null while it is
 * incomplete or out of range (no account, count 0, lifetime above 120 min), so no lines are shown.
 */
export function linesQuery(s: LineSettings): ProxyLinesQuery | null {
  const parsed = proxyLinesQuery.safeParse({
    accountId: s.accountId,
    protocol: s.protocol,
    ...regionChoice(s.region),
    sticky: s.sticky ? '1' : '0',
    lifeMinutes: s.sticky ? (s.lifeMinutes ?? undefined) : STICKY_DEFAULT_LIFE,
    count: s.count ?? undefined,
    format: s.format,
  });
  return parsed.success ? parsed.data : null;
}
