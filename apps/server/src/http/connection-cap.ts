import { BlockList, isIPv6 } from 'node:net';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The range names TRUST_PROXY takes (as proxy-addr has them), as address ranges. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/**
 * Which socket peers are the proxies TRUST_PROXY names: their connections carry many clients, so a cap
 * per peer address would cap everyone behind them. A hop count trusts whoever connects: no cap at all.
 */
export function trustedPeers(trustProxy: false | number | string[]): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [net, bits, type] of named) list.addSubnet(net, bits, type);
      continue;
    }
    const [ip = '', bits] = entry.split('/');
    const type = isIPv6(ip) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  return (address) => {
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const v4 = address.startsWith('::ffff:') ? address.slice(7) : null;
    return v4 ? list.check(v4, 'ipv4') : list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
  };
}

export interface ConnectionCap {
  /** Connections closed at accept because their address had `max` open. */
  refused: number;
}

/**
 * At most `max` open connections per socket peer address on the API's server (the bound on
 * what one anonymous client may hold, docs/api.md#rate-and-connection-limits): one more is closed at
 * once. By the peer, never by
 * X-Forwarded-For, which a client writes itself.
 */
export function capConnectionsPerIp(server: Server, max: number, exempt: (address: string) => boolean): ConnectionCap {
  const cap: ConnectionCap = { refused: 0 };
  const open = new Map<string, number>();
  const release = (ip: string) => {
    const n = (open.get(ip) ?? 1) - 1;
    if (n <= 0) open.delete(ip);
    else open.set(ip, n);
  };
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress;
    if (ip === undefined || exempt(ip)) return;
    const n = open.get(ip) ?? 0;
    if (n >= max) {
      cap.refused++;
      socket.destroy();
      return;
    }
    open.set(ip, n + 1);
    socket.once('close', () => release(ip));
  });
  return cap;
}

/**
 * A failed accept (EMFILE, ENFILE: out of descriptors) is an 'error' of the listening server; with no
 * listener it would end the process. Logged at most every 10 s, with how many failed meanwhile.
 */
export function logAcceptErrors(server: Server, log: { error(obj: object, msg: string): void }, everyMs = 10_000): void {
  let failed = 0;
  let last = 0;
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.syscall !== 'accept') return;
    failed++;
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    log.error({ code: err.code, failedAccepts: failed }, 'api: accepting connections fails (out of file descriptors?); raise the limit (docs/deployment.md)');
    failed = 0;
  });
}
