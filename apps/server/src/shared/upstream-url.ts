/**
 * An upstream proxy as the URL the gateway dials (`http://user:pass@host:port`, `socks5://…`): user and
 * password percent-encoded, so any character of a provider's credentials survives; an IPv6 host in brackets.
 */
export function upstreamUrl(u: { protocol: string; host: string; port: number; username: string | null; password: string | null }): string {
  const url = new URL(`${u.protocol}://${u.host.includes(':') ? `[${u.host}]` : u.host}:${u.port}`);
  if (u.username) url.username = encodeURIComponent(u.username);
  if (u.password) url.password = encodeURIComponent(u.password);
  return url.toString().replace(/\/$/, '');
}
