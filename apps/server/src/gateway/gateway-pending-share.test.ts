import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../../test/security-figures';
import { HOST, basic, connectTunnel, exchange, socksConnect, startByteOrigin, startGateway, waitFor } from '../../test/gateway-fixtures';
import { UpstreamExitChooser } from './upstream-exit-chooser';

/*
 * Paying customers keep getting in while strangers hold the gateway's unauthenticated connections
 * (docs/gateway.md#connection-limits-and-failed-logins): the attack the abuse probe ran — 63 loopback
 * addresses × 64 partial heads, each reopened as soon as the gateway closes it — against a customer who
 * opens a new tunnel every half second, on the HTTP and the SOCKS5 port. Before unauthenticated
 * connections had their own share of the budget, the customer got through 3 times in 66 (HTTP) and 1 in
 * 51 (SOCKS5).
 */

const TEST = 'apps/server/src/gateway/gateway-pending-share.test.ts';
const ADDRESSES = 63;
const PER_ADDRESS = 64;
const BUDGET = 1000;
const HANDSHAKE_MS = 3000;
const TRIES = 12;

type Port = 'http' | 'socks';

/**
 * Holds `PER_ADDRESS` partial heads from each of `sources` on `port`; whatever the gateway closes (its
 * deadline, a refusal, room made for someone else) is opened again after `pauseMs`, until `stop()`.
 */
function attack(port: number, first: string | Buffer, sources: string[], pauseMs = 1000) {
  let running = true;
  const live = new Set<net.Socket>();
  let opened = 0;
  const open = (localAddress: string) => {
    if (!running) return;
    const s = net.connect({ port, host: HOST, localAddress });
    opened++;
    live.add(s);
    s.on('error', () => undefined);
    s.once('connect', () => s.write(first));
    s.once('close', () => {
      live.delete(s);
      setTimeout(() => open(localAddress), pauseMs);
    });
  };
  for (const ip of sources) for (let i = 0; i < PER_ADDRESS; i++) open(ip);
  return {
    get opened() {
      return opened;
    },
    stop() {
      running = false;
      for (const s of live) s.destroy();
    },
  };
}

describe('gateway: unauthenticated connections have their own share of the budget', () => {
  let g: Awaited<ReturnType<typeof startGateway>>;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;

  beforeAll(async () => {
    origin = await startByteOrigin();
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), maxConnections: BUDGET, handshakeTimeoutMs: HANDSHAKE_MS });
    g.authority.add('payer', { password: 'right' });
  });
  afterAll(async () => {
    await g.gw.stop();
    await origin.close();
  });

  /** One new tunnel of the paying customer from `from`, carrying bytes both ways: true when it worked. */
  const tunnel = async (port: Port, from: string): Promise<boolean> => {
    try {
      const t =
        port === 'http'
          ? await connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, basic('payer', 'right'), from)
          : await socksConnect(g.gw.socksPort, 'payer', 'right', HOST, origin.port, from).then((r) => ({ status: r.rep === 0 ? 200 : r.rep, socket: r.socket }));
      if (t.status !== 200) {
        t.socket.destroy();
        return false;
      }
      const got = await exchange(t.socket, 100, 1000);
      t.socket.destroy();
      return got === 1000;
    } catch {
      return false;
    }
  };

  /** The customer's tries, one every 0.5 s (the probe's pace), once `sources` hold `fills` pending connections on `port`. */
  const underAttack = async (port: Port, sources: string[], customer: string, fills: number) => {
    const target = port === 'http' ? g.gw.httpPort : g.gw.socksPort;
    const a = attack(target, port === 'http' ? `CONNECT ${HOST}:${origin.port} HTTP/1.1\r\n` : Buffer.from([5]), sources);
    const limits = g.gw.protection[port];
    const before = { ...limits.refused, evicted: limits.evicted, timedOut: limits.timedOut };
    try {
      // The attack at full strength first: every pending slot it can take is taken.
      await waitFor(() => limits.pendingCount >= fills, 20_000, 'the attack to fill what it may hold');
      let ok = 0;
      let maxPending = 0;
      for (let i = 0; i < TRIES; i++) {
        maxPending = Math.max(maxPending, limits.pendingCount);
        const started = Date.now();
        if (await tunnel(port, customer)) ok++;
        await new Promise((r) => setTimeout(r, Math.max(0, 500 - (Date.now() - started))));
      }
      return {
        ok,
        maxPending,
        opened: a.opened,
        refusedPerNet: limits.refused.pendingPerNet - before.pendingPerNet,
        evicted: limits.evicted - before.evicted,
      };
    } finally {
      a.stop();
    }
  };

  const figures: string[] = [];

  // Each port: the attack filling its slots, then 12 tries 0.5 s apart.
  const SCENARIO_MS = 90_000;

  it('serves a customer who logged in before, from the same /24 as 63 attacking addresses, on both ports', { timeout: SCENARIO_MS }, async () => {
    // 127.0.0.2–127.0.0.64: the probe's attack, all in the customer's /24.
    const sources = Array.from({ length: ADDRESSES }, (_, i) => `127.0.0.${2 + i}`);
    for (const port of ['http', 'socks'] as const) {
      expect(await tunnel(port, '127.0.0.1')).toBe(true);
      const r = await underAttack(port, sources, '127.0.0.1', 256);
      expect(r.ok).toBe(TRIES);
      // The network cap held them to 256 pending, far below the share: the rest were refused at once.
      expect(r.maxPending).toBeLessThanOrEqual(256 + 1);
      expect(r.refusedPerNet).toBeGreaterThan(0);
      figures.push(`${port === 'http' ? 'HTTP' : 'SOCKS5'}, attackers in the customer's /24: ${r.ok}/${TRIES} tunnels (${r.opened.toLocaleString('en')} attacking connections opened, ${r.refusedPerNet.toLocaleString('en')} refused by the /24 cap)`);
    }
  });

  it('serves a customer from a new address while 63 attacking /24s fill the unauthenticated share, on both ports', { timeout: SCENARIO_MS }, async () => {
    // 127.0.1.2, 127.0.2.2, …: a /24 each, so only the share and its eviction of the oldest stand in their way.
    const sources = Array.from({ length: ADDRESSES }, (_, i) => `127.0.${1 + i}.2`);
    for (const [port, customer] of [
      ['http', '127.0.200.1'],
      ['socks', '127.0.201.1'],
    ] as const) {
      const r = await underAttack(port, sources, customer, BUDGET / 2);
      // Pending connections never take more than their share: half the budget.
      expect(r.maxPending).toBeLessThanOrEqual(BUDGET / 2);
      expect(r.evicted).toBeGreaterThan(0);
      // A new address's connection can itself be pushed out before its head is read; nearly all get in.
      expect(r.ok).toBeGreaterThanOrEqual(TRIES - 2);
      figures.push(
        `${port === 'http' ? 'HTTP' : 'SOCKS5'}, attackers in 63 other /24s, customer on a new address: ${r.ok}/${TRIES} tunnels (${r.opened.toLocaleString('en')} attacking connections opened, ${r.evicted.toLocaleString('en')} pushed out as the oldest)`,
      );
    }
    recordFigure({
      id: 'gateway-pending-share',
      threat: 'Strangers fill the gateway with unauthenticated connections so paying customers cannot get in',
      test: `${TEST} › serves a customer…`,
      figure:
        `${ADDRESSES} loopback addresses × ${PER_ADDRESS} partial heads, each reopened as the gateway closes it, against GATEWAY_MAX_CONNECTIONS=${BUDGET} ` +
        `(unauthenticated share ${BUDGET / 2}, 256 per /24, 64 per address), a paying customer opening a tunnel every 0.5 s: ${figures.join('; ')}. ` +
        'Before the share: 3 of 66 (HTTP) and 1 of 51 (SOCKS5).',
    });
  });
});
