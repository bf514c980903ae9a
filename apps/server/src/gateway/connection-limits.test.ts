import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionLimits, type ConnectionLimitsOptions, type Handshake } from './connection-limits';
import { KnownSources, networkOf } from './known-sources';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LIMITS = { handshakeMs: 10_000, maxPendingPerIp: 64, maxPendingPerNet: 256, maxPending: 500, maxConnections: 1000 };

function limitsWith(o: Partial<ConnectionLimitsOptions> = {}): ConnectionLimits {
  return new ConnectionLimits({ listener: 'http', ...LIMITS, known: new KnownSources(), log: quiet, ...o });
}

/** What admit() reads of a socket, and whether it was destroyed. */
function peer(remoteAddress: string): Socket {
  const s = { remoteAddress, destroyed: false, destroy: () => void (s.destroyed = true) };
  return s as unknown as Socket;
}

describe('ConnectionLimits.acceptError', () => {
  afterEach(() => vi.useRealTimers());

  it('logs failed accepts at most once per 10 s, with how many failed since the last line', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const lines: object[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: (o: object) => lines.push(o) };
    const limits = limitsWith({ log });
    const emfile = Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' });
    for (let i = 0; i < 500; i++) limits.acceptError(emfile);
    expect(lines).toEqual([{ listener: 'http', code: 'EMFILE', failedAccepts: 1 }]);
    vi.setSystemTime(1_010_000);
    limits.acceptError(emfile);
    expect(lines[1]).toEqual({ listener: 'http', code: 'EMFILE', failedAccepts: 500 });
  });
});

describe('ConnectionLimits.admit', () => {
  const held: Handshake[] = [];
  afterEach(() => {
    // Their deadlines share a timer: cancelled, so no test leaves one behind.
    for (const h of held.splice(0)) h.cancel();
  });
  /** Admits a connection from `ip` with `open` connections already on the listener. */
  const admit = (limits: ConnectionLimits, ip: string, open = 0) => {
    const socket = peer(ip);
    const h = limits.admit(socket, open);
    if (h) held.push(h);
    return { h, socket };
  };

  it('counts a /24 together and refuses past GATEWAY_MAX_PENDING_PER_NET, other networks unaffected', () => {
    const limits = limitsWith();
    for (let i = 0; i < 256; i++) expect(admit(limits, `198.51.100.${i % 64}`).h).not.toBeNull();
    const { h, socket } = admit(limits, '198.51.100.200');
    expect(h).toBeNull();
    expect(socket.destroyed).toBe(true);
    expect(limits.refused.pendingPerNet).toBe(1);
    expect(admit(limits, '198.51.101.1').h).not.toBeNull();
    // The same network written as IPv4-mapped IPv6 is the same network.
    expect(admit(limits, '::ffff:198.51.100.7').h).toBeNull();
    expect(limits.refused.pendingPerNet).toBe(2);
  });

  it('lets an address that logged in lately past its network cap', () => {
    const known = new KnownSources();
    const limits = limitsWith({ known });
    for (let i = 0; i < 256; i++) admit(limits, `198.51.100.${2 + (i % 64)}`);
    expect(admit(limits, '198.51.100.1').h).toBeNull();
    known.loggedIn('198.51.100.1');
    expect(admit(limits, '198.51.100.1').h).not.toBeNull();
  });

  it('makes room in a full unauthenticated share by closing the oldest pending connection, not the new one', () => {
    const limits = limitsWith({ maxPending: 3, maxPendingPerNet: 1000 });
    const first = admit(limits, '203.0.113.1');
    const second = admit(limits, '203.0.113.2');
    second.h!.authenticated();
    admit(limits, '203.0.113.3');
    admit(limits, '203.0.113.4');
    expect(limits.pendingCount).toBe(3);
    const next = admit(limits, '203.0.113.5');
    expect(next.h).not.toBeNull();
    // The oldest still pending goes; the authenticated one is no longer in the share at all.
    expect(first.socket.destroyed).toBe(true);
    expect(second.socket.destroyed).toBe(false);
    expect(limits.evicted).toBe(1);
    expect(limits.pendingCount).toBe(3);
    expect(limits.pendingFrom('203.0.113.1')).toBe(0);
  });

  it('counts right when the connection that makes room is from the same address', () => {
    const limits = limitsWith({ maxPending: 2 });
    const first = admit(limits, '203.0.113.1');
    admit(limits, '203.0.113.1');
    admit(limits, '203.0.113.1');
    expect(first.socket.destroyed).toBe(true);
    expect(limits.pendingFrom('203.0.113.1')).toBe(2);
    expect(limits.pendingCount).toBe(2);
  });

  it('refuses at once only when every open connection has authenticated', () => {
    const limits = limitsWith({ maxConnections: 2, maxPending: 2 });
    const a = admit(limits, '203.0.113.1', 0);
    const b = admit(limits, '203.0.113.2', 1);
    b.h!.authenticated();
    // Full: the one still pending makes room.
    const c = admit(limits, '203.0.113.3', 2);
    expect(c.h).not.toBeNull();
    expect(a.socket.destroyed).toBe(true);
    c.h!.authenticated();
    const d = admit(limits, '203.0.113.4', 2);
    expect(d.h).toBeNull();
    expect(limits.refused.budget).toBe(1);
  });

  it('keeps the per-address cap for known addresses too', () => {
    const known = new KnownSources();
    known.loggedIn('203.0.113.9');
    const limits = limitsWith({ known, maxPendingPerIp: 2 });
    admit(limits, '203.0.113.9');
    admit(limits, '203.0.113.9');
    expect(admit(limits, '203.0.113.9').h).toBeNull();
    expect(limits.refused.pendingPerIp).toBe(1);
  });
});

describe('networkOf', () => {
  it('names the /24 of IPv4 and IPv4-mapped addresses and the /64 of IPv6, however written', () => {
    expect(networkOf('192.0.2.77')).toBe('192.0.2.0/24');
    expect(networkOf('::ffff:192.0.2.77')).toBe('192.0.2.0/24');
    expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:db8:1:2::9')).toBe(networkOf('2001:0db8:0001:0002:ffff::1'));
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });
});

describe('KnownSources', () => {
  it('forgets an address an hour after its last login, and the least recent first when full', () => {
    let now = 0;
    const known = new KnownSources({ ttlMs: 60 * 60_000, max: 2 }, () => now);
    known.loggedIn('192.0.2.1');
    now = 59 * 60_000;
    expect(known.has('192.0.2.1')).toBe(true);
    now = 61 * 60_000;
    expect(known.has('192.0.2.1')).toBe(false);
    known.loggedIn('192.0.2.1');
    known.loggedIn('192.0.2.2');
    known.loggedIn('192.0.2.3');
    expect(known.has('192.0.2.1')).toBe(false);
    expect(known.has('192.0.2.3')).toBe(true);
  });
});
