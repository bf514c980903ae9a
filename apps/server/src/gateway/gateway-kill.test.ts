import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/commerce';
import { HOST, basic, connectTunnel, exchange, socksConnect, startByteOrigin, startHttpOrigin } from '../../test/gateway-fixtures';
import {
  PROXY_PASSWORD,
  type GatewayProcess,
  billed,
  billedTotal,
  byteOriginHeader,
  carried,
  enableDirectEgress,
  freePort,
  gatewayCustomer,
  grantsOf,
  pacedUpload,
  spawnGateway,
  until,
  withDeadline,
} from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

const KB = 1024;
const MB = 1024 * KB;
/** The gateway process's flush interval (gateway.ts default; `--role=gateway` does not change it). */
const FLUSH_MS = 5000;
/** Each of the four transfers moves this many bytes a second while the process is killed. */
const RATE = 256 * KB;

/*
 * Issue 4: "`kill -9` of the gateway during transfers: after restart no byte is billed twice, and the
 * bytes lost are at most one flush window — measure it and print it." A real `--role=gateway` process
 * against the test's store; the clients' own socket counters are what was carried.
 */
describe.each(DIALECTS)('kill -9 of a gateway process on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  const procs: GatewayProcess[] = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = (await signedIn(t, 'admin')).token;
    await enableDirectEgress(t, admin);
    web = await startHttpOrigin();
    origin = await startByteOrigin();
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await Promise.all([web?.close(), origin?.close()]);
    await t?.close();
  });

  it('bills no byte twice after a restart and loses at most one flush window', async () => {
    const c = await gatewayCustomer(t, admin, [[10 * 1024 * MB, 30]]);
    const auth = basic(c.username, PROXY_PASSWORD);
    const ports = { http: await freePort(), socks: await freePort() };

    // ---- run 1: four live transfers (download and upload, CONNECT and SOCKS5), killed mid-window
    const first = spawnGateway(t, ports);
    procs.push(first);
    await withDeadline(first.ready, 30_000, 'the gateway process to listen');

    const downConnect = await connectTunnel(ports.http, `${HOST}:${web.port}`, auth);
    const downSocks = await socksConnect(ports.socks, c.username, PROXY_PASSWORD, HOST, web.port);
    const upConnect = await connectTunnel(ports.http, `${HOST}:${origin.port}`, auth);
    const upSocks = await socksConnect(ports.socks, c.username, PROXY_PASSWORD, HOST, origin.port);
    expect([downConnect.status, downSocks.rep, upConnect.status, upSocks.rep]).toEqual([200, 0, 200, 0]);
    const run1 = [downConnect.socket, downSocks.socket, upConnect.socket, upSocks.socket];
    sockets.push(...run1);
    for (const s of [downConnect.socket, downSocks.socket]) {
      s.write(`GET /stream/${RATE} HTTP/1.1\r\nHost: origin\r\n\r\n`);
      s.resume();
    }
    for (const s of [upConnect.socket, upSocks.socket]) {
      // The byte origin swallows up to 4 GiB and never answers: a pure upload.
      s.write(byteOriginHeader(0xffffffff, 0));
      pacedUpload(s, RATE);
      s.resume();
    }
    const closed1 = Promise.all(run1.map((s) => new Promise((r) => (s.destroyed ? r(null) : s.once('close', r)))));

    // The clients' byte counts every 50 ms, to know what was carried in the flush window before the kill.
    const started = Date.now();
    const samples: { at: number; bytes: number }[] = [];
    const sample = () => samples.push({ at: Date.now(), bytes: run1.reduce((n, s) => n + carried(s), 0) });
    sample();
    const sampler = setInterval(sample, 50);

    // Wait for a flush to land that came at least half a window after the traffic started, then kill the
    // process half a window later: mid-window, with that flush's bytes long delivered to the clients.
    let landedAt = 0;
    let seen = 0;
    await until(
      async () => {
        const now = await billedTotal(t, c.accountId);
        if (now > seen) {
          seen = now;
          landedAt = Date.now();
        }
        return seen > 0 && landedAt - started >= FLUSH_MS / 2;
      },
      30_000,
      'a usage flush from the gateway process',
    );
    await new Promise((r) => setTimeout(r, Math.max(0, landedAt + FLUSH_MS / 2 - Date.now())));
    sample();
    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    expect((await withDeadline(first.exited, 15_000, 'the killed process to exit')).signal).toBe('SIGKILL');
    await withDeadline(closed1, 15_000, 'the clients to see the gateway gone');
    clearInterval(sampler);

    const carried1 = run1.reduce((n, s) => n + carried(s), 0);
    // A commit the process sent just before dying may still be applied: read until the store is settled.
    let b1 = await billed(t, c.accountId);
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const again = await billed(t, c.accountId);
      if (again.total === b1.total) break;
      b1 = again;
    }
    const windowStart = samples.filter((s) => s.at <= killedAt - FLUSH_MS).at(-1) ?? samples[0]!;
    const oneWindow = carried1 - windowStart.bytes;
    const lost = carried1 - b1.total;
    const atKill = samples.at(-1)!;
    const rate = (atKill.bytes - samples[0]!.bytes) / ((atKill.at - samples[0]!.at) / 1000);

    expect(b1.total).toBeGreaterThan(0);
    expect(b1.total).toBeLessThanOrEqual(carried1);
    expect(lost).toBeLessThanOrEqual(oneWindow);
    // Each batch landed whole: usage rows, the account's counter and the grants agree.
    expect(b1.accountUsed).toBe(b1.total);
    expect((await grantsOf(t, c.user.id)).reduce((n, g) => n + Number(g.used_bytes), 0)).toBe(b1.total);

    // ---- run 2: the same store and ports; exact transfers, then a clean stop that flushes them
    const second = spawnGateway(t, ports);
    procs.push(second);
    await withDeadline(second.ready, 30_000, 'the restarted gateway process to listen');
    const viaConnect = await connectTunnel(ports.http, `${HOST}:${origin.port}`, auth);
    const viaSocks = await socksConnect(ports.socks, c.username, PROXY_PASSWORD, HOST, origin.port);
    expect([viaConnect.status, viaSocks.rep]).toEqual([200, 0]);
    sockets.push(viaConnect.socket, viaSocks.socket);
    expect(await exchange(viaConnect.socket, 256 * KB, 1 * MB)).toBe(1 * MB);
    expect(await exchange(viaSocks.socket, 128 * KB, 2 * MB)).toBe(2 * MB);
    const carried2 = carried(viaConnect.socket) + carried(viaSocks.socket);
    second.child.kill('SIGTERM');
    expect(await withDeadline(second.exited, 30_000, 'the stopped process to exit'), second.output()).toEqual({ code: 0, signal: null });

    const b2 = await billed(t, c.accountId);
    // Run 2 billed exactly what it carried, and nothing of run 1 a second time.
    expect(b2.total - b1.total).toBe(carried2);
    expect(b2.total).toBeLessThanOrEqual(carried1 + carried2);
    expect(b2.accountUsed).toBe(b2.total);
    expect((await grantsOf(t, c.user.id)).reduce((n, g) => n + Number(g.used_bytes), 0)).toBe(b2.total);

    console.log(
      `kill -9 (${dialect}): carried ${carried1} B, billed ${b1.total} B, lost ${lost} B ` +
        `(${((lost / rate) * 1000).toFixed(0)} ms of traffic at ${(rate / MB).toFixed(2)} MB/s, killed ${killedAt - landedAt} ms after a flush landed; ` +
        `bound: one ${FLUSH_MS / 1000} s flush window = ${oneWindow} B); after restart: carried ${carried2} B, billed ${b2.total - b1.total} B`,
    );
  }, 90_000);
});
