import { isIP } from 'node:net';
import { STATIC_IMPORT_MAX_LINES } from '@resi/contract';

/** An upstream proxy as read from one pasted line. */
export interface ParsedUpstream {
  protocol: 'http' | 'socks5';
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

/**
 * Why a line was not taken: a key under `staticImport.` in the server's locales. The host problems come
 * from upstream-host-check.ts, which needs a lookup and so is not part of the parse.
 */
export type LineProblem = 'format' | 'scheme' | 'port' | 'exitIp' | 'exitIpMissing' | 'tooMany' | 'privateHost' | 'unresolvedHost';

export type ParsedLine = { line: number; upstream: ParsedUpstream; exitIp: string } | { line: number; problem: LineProblem };

const SCHEMES: Record<string, ParsedUpstream['protocol']> = { 'http:': 'http', 'socks5:': 'socks5', 'socks:': 'socks5' };
const HOST = /^[A-Za-z0-9.-]{1,253}$/;

/** An IP literal written the one way the inventory stores it (IPv6 lower case, no brackets); null if not one. */
export function normalIp(text: string): string | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const kind = isIP(bare);
  if (kind === 4) return bare;
  if (kind === 6) return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  return null;
}

function port(text: string): number | null {
  if (!/^[0-9]{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : null;
}

/** `scheme://user:pass@host:port` (http, socks5), by the WHATWG URL parser: it decodes and brackets for us. */
function fromUrl(text: string): ParsedUpstream | LineProblem {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'format';
  }
  const protocol = SCHEMES[url.protocol];
  if (!protocol) return 'scheme';
  if (url.pathname !== '' && url.pathname !== '/') return 'format';
  if (url.search || url.hash || !url.hostname) return 'format';
  // The URL parser drops a scheme's default port; an upstream line must say which port it means.
  const written = /:([0-9]+)\/?$/.exec(text)?.[1];
  const p = written === undefined ? null : port(written);
  if (p === null) return 'port';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    protocol,
    host,
    port: p,
    username: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
  };
}

/** `host:port[:user:pass]`, the form most ISP-proxy sellers export (HTTP); the password may hold colons. */
function fromColons(text: string): ParsedUpstream | LineProblem {
  const parts = text.split(':');
  if (parts.length !== 2 && parts.length < 4) return 'format';
  const [host, portText, username, ...rest] = parts as [string, string, string | undefined, ...string[]];
  if (!HOST.test(host)) return 'format';
  const p = port(portText);
  if (p === null) return 'port';
  if (username === '') return 'format';
  return { protocol: 'http', host, port: p, username: username ?? null, password: rest.length > 0 ? rest.join(':') : null };
}

/**
 * Reads a pasted import (docs/business-rules.md#static-residential-ips): one IP per line, the upstream
 * then optionally whitespace and the exit IP (default: the upstream host when it is an IP literal).
 * Blank lines and `#` comments are skipped; line numbers count every line, as the admin sees them.
 */
export function parseInventoryLines(text: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  let taken = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (++taken > STATIC_IMPORT_MAX_LINES) return void out.push({ line, problem: 'tooMany' });
    const [first, second, ...extra] = trimmed.split(/\s+/) as [string, string | undefined, ...string[]];
    if (extra.length > 0) return void out.push({ line, problem: 'format' });
    const upstream = first.includes('://') ? fromUrl(first) : fromColons(first);
    if (typeof upstream === 'string') return void out.push({ line, problem: upstream });
    const exitIp = second === undefined ? normalIp(upstream.host) : normalIp(second);
    if (exitIp === null) return void out.push({ line, problem: second === undefined ? 'exitIpMissing' : 'exitIp' });
    out.push({ line, upstream, exitIp });
  });
  return out;
}
