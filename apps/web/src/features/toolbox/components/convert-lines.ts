import { type LineFormat, type ProxyEndpoint, formatProxyLine, parseProxyLine } from '@resi/contract';

export interface LineError {
  /** 1-based, as an editor counts. */
  line: number;
  text: string;
}

export interface Conversion {
  lines: string[];
  errors: LineError[];
}

/**
 * Rewrites pasted proxy lines into `target`, line by line; blank lines are skipped, unreadable ones
 * reported. A line that does not say its protocol (host:port:user:pass, user:pass@host:port) is taken
 * as SOCKS5 when it points at this gateway's SOCKS5 port, else as HTTP — as Get Proxy made it.
 */
export function convertLines(input: string, target: LineFormat, ep: ProxyEndpoint): Conversion {
  const out: Conversion = { lines: [], errors: [] };
  input.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const p = parseProxyLine(raw);
    if (!p) {
      out.errors.push({ line: i + 1, text: raw.trim() });
      return;
    }
    const scheme = p.scheme ?? (p.host === ep.host && p.port === ep.socksPort ? 'socks5h' : 'http');
    out.lines.push(formatProxyLine({ ...p, scheme }, target, p.checkUrl ?? ep.checkUrl));
  });
  return out;
}
