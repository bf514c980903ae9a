import { formatProxyLine, type StaticProxyDto } from '@resi/contract';

type LineSource = Pick<StaticProxyDto, 'host' | 'httpPort' | 'socksPort' | 'username' | 'password'>;

/**
 * A static IP's two lines as Get Proxy writes them in its URL format: the scheme tells HTTP from SOCKS5
 * (`socks5h`, so the gateway resolves names) when both are pasted together (docs/gateway.md#username).
 */
export function staticLines(p: LineSource): { http: string; socks5: string } {
  const base = { host: p.host, username: p.username, password: p.password };
  return {
    http: formatProxyLine({ ...base, port: p.httpPort, scheme: 'http' }, 'url', ''),
    socks5: formatProxyLine({ ...base, port: p.socksPort, scheme: 'socks5h' }, 'url', ''),
  };
}

/** The export file: each IP's HTTP line then its SOCKS5 line, one per line. */
export function staticLinesText(proxies: readonly LineSource[]): string {
  return proxies.flatMap((p) => Object.values(staticLines(p))).join('\n') + '\n';
}
