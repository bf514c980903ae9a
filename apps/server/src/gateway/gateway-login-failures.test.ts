import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { signedIn } from '../../test/commerce';
import { HOST, basic, readResponse, socksConnect, startGateway, waitFor } from '../../test/gateway-fixtures';
import { recordFigure } from '../../test/security-figures';
import { PROXY_PASSWORD, enableDirectEgress, gatewayCustomer, until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import type { GatewayLog } from './gateway-log';
import type { LoginFailureCount, LoginFailureSink } from './ports';
import { UpstreamExitChooser } from './upstream-exit-chooser';
import { REASON_HEADER } from './statuses';
import { startStoreGateway } from './store/store-gateway';

/*
 * Proxy password guessing (docs/gateway.md#connection-limits-and-failed-logins): failed logins from one address are slowed, then refused for a
 * while; failures against an existing account are counted for its owner; one aggregate log line per
 * interval, never with a password.
 */

/** One CONNECT attempt from `localAddress`: its status and reason header, and how long the answer took. */
async function attempt(port: number, user: string | null, pass: string, localAddress = HOST): Promise<{ status: number; reason: string | undefined; ms: number }> {
  const t0 = Date.now();
  const socket = net.connect({ port, host: HOST, localAddress });
  socket.on('error', () => undefined);
  // `user` null: no credentials at all, as an allowlisted program (or a browser asking first) sends.
  const auth = user === null ? '' : `Proxy-Authorization: ${basic(user, pass)}\r\n`;
  socket.write(`CONNECT ${HOST}:9 HTTP/1.1\r\nHost: ${HOST}:9\r\n${auth}\r\n`);
  try {
    const r = await readResponse(socket);
    return { status: r.status, reason: r.headers[REASON_HEADER.toLowerCase()], ms: Date.now() - t0 };
  } finally {
    socket.destroy();
  }
}

/** One SOCKS5 login (greeting and credentials in one write) from `localAddress`: the RFC 1929 status. */
function socksAttempt(port: number, user: string, pass: string, localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: HOST, localAddress });
    s.on('error', () => resolve(-1));
    const u = Buffer.from(user);
    const p = Buffer.from(pass);
    s.write(Buffer.concat([Buffer.from([5, 1, 2, 1, u.length]), u, Buffer.from([p.length]), p]));
    let got = Buffer.alloc(0);
    s.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
      if (got.length < 4) return;
      s.destroy();
      resolve(got[3]!);
    });
    s.once('close', () => resolve(-1));
  });
}

/** `workers` clients guessing in a loop for `ms`: how many answers of each reason (SOCKS5: status) came back. */
async function guess(port: number, ms: number, workers: number, localAddress: string, socks = false): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const until = Date.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) {
        let key: string;
        if (socks) key = `socks${await socksAttempt(port, 'victim', `guess${n++}`, localAddress)}`;
        else {
          const r = await attempt(port, 'victim', `guess${n++}`, localAddress);
          key = r.reason ?? String(r.status);
        }
        counts[key] = (counts[key] ?? 0) + 1;
      }
    }),
  );
  return counts;
}

class FakeLoginSink implements LoginFailureSink {
  readonly counts: LoginFailureCount[] = [];
  async recordLoginFailures(counts: LoginFailureCount[]): Promise<void> {
    this.counts.push(...counts);
  }
  total(accountId: number): number {
    return this.counts.filter((c) => c.accountId === accountId).reduce((a, c) => a + c.failures, 0);
  }
}

describe('gateway: failed proxy logins', () => {
  const lines: string[] = [];
  const log: GatewayLog = {
    info: () => undefined,
    warn: (obj, msg) => lines.push(JSON.stringify({ ...obj, msg })),
    error: (obj, msg) => lines.push(JSON.stringify({ ...obj, msg })),
  };
  const sink = new FakeLoginSink();
  let g: Awaited<ReturnType<typeof startGateway>>;
  let victimId: number;

  beforeAll(async () => {
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), log, loginFailureSink: sink, loginLogMs: 200 });
    victimId = g.authority.add('victim', { password: 'RightPassword1' }).id;
  });
  afterAll(() => g.gw.stop());

  it('slows guessing from one address and then refuses it, and says how much in a figure', async () => {
    const WINDOW_MS = 3000;
    const WORKERS = 16;
    // Before: the same guessing against a gateway whose policy never slows or refuses (what it was).
    const open = await startGateway(
      { chooser: new UpstreamExitChooser({ direct: true }), loginFailurePolicy: { slowAfter: 1e9, lockAfter: 1e9 } },
      g.authority,
    );
    let before: Record<string, number>;
    let socksBefore: Record<string, number>;
    try {
      before = await guess(open.gw.httpPort, WINDOW_MS, WORKERS, '127.0.0.70');
      socksBefore = await guess(open.gw.socksPort, WINDOW_MS, WORKERS, '127.0.0.75', true);
    } finally {
      await open.gw.stop();
    }
    const after = await guess(g.gw.httpPort, WINDOW_MS, WORKERS, '127.0.0.71');
    const refusedBefore = g.gw.protection.failures.refusedTotal;
    const socksAfter = await guess(g.gw.socksPort, WINDOW_MS, WORKERS, '127.0.0.76', true);
    // SOCKS5 has one failure status for both: the refusals are the lockout's, the rest were checked.
    const socksRefused = g.gw.protection.failures.refusedTotal - refusedBefore;
    const socksChecked = (socksAfter.socks1 ?? 0) - socksRefused;
    expect((socksBefore.socks1 ?? 0) / (WINDOW_MS / 1000)).toBeGreaterThan(50);
    expect(socksChecked).toBeGreaterThanOrEqual(20);
    expect(socksChecked).toBeLessThanOrEqual(20 + WORKERS);
    expect(socksRefused).toBeGreaterThan(0);

    const beforeRate = (before.BAD_CREDENTIALS ?? 0) / (WINDOW_MS / 1000);
    const checked = after.BAD_CREDENTIALS ?? 0;
    expect(beforeRate).toBeGreaterThan(50);
    // 20 failures lock the address; the ones in flight when it locked still get their (slowed) answer.
    expect(checked).toBeGreaterThanOrEqual(20);
    expect(checked).toBeLessThanOrEqual(20 + WORKERS);
    expect(after.TOO_MANY_FAILURES ?? 0).toBeGreaterThan(0);
    recordFigure({
      id: 'gateway-password-guessing',
      threat: 'Proxy password guessing from one address',
      test: 'apps/server/src/gateway/gateway-login-failures.test.ts › slows guessing from one address and then refuses it…',
      figure:
        `${WORKERS} parallel HTTP CONNECT guessers from one address for ${WINDOW_MS / 1000} s: before, ${Math.round(beforeRate).toLocaleString('en')} guesses/s checked ` +
        `(${(before.BAD_CREDENTIALS ?? 0).toLocaleString('en')} in all); after, ${checked} checked in all (${(checked / (WINDOW_MS / 1000)).toFixed(1)}/s: ` +
        `the 6th to 20th answered 1 s late, then the address locked out for 15 min) and ${(after.TOO_MANY_FAILURES ?? 0).toLocaleString('en')} refused ` +
        `TOO_MANY_FAILURES without looking at the password. Over SOCKS5, the same: before, ${Math.round((socksBefore.socks1 ?? 0) / (WINDOW_MS / 1000)).toLocaleString('en')} guesses/s; ` +
        `after, ${socksChecked} checked in all and ${socksRefused.toLocaleString('en')} refused.`,
    });
  });

  it('an unlisted address without credentials is slowed like a guess, unless it logged in lately (a browser asking first)', async () => {
    for (let i = 0; i < 6; i++) expect((await attempt(g.gw.httpPort, null, '', '127.0.0.80')).status).toBe(407);
    expect((await attempt(g.gw.httpPort, null, '', '127.0.0.80')).ms).toBeGreaterThanOrEqual(700);

    const right = await attempt(g.gw.httpPort, 'victim', 'RightPassword1', '127.0.0.81');
    expect(right.ms).toBeLessThan(700);
    for (let i = 0; i < 10; i++) {
      const bare = await attempt(g.gw.httpPort, null, '', '127.0.0.81');
      expect(bare.status).toBe(407);
      expect(bare.ms).toBeLessThan(700);
    }
  });

  it('lets a right password through before the lockout, undelayed, and refuses it from a locked address only', async () => {
    for (let i = 0; i < 7; i++) await attempt(g.gw.httpPort, 'victim', `wrong${i}`, '127.0.0.72');
    // The 7th failure was answered late: the address is being slowed.
    const slowed = await attempt(g.gw.httpPort, 'victim', 'wrong-again', '127.0.0.72');
    expect(slowed.ms).toBeGreaterThanOrEqual(700);
    const right = await attempt(g.gw.httpPort, 'victim', 'RightPassword1', '127.0.0.72');
    // 200 and then the dial of port 9 fails: either way the credentials were accepted, and at once.
    expect(right.reason === undefined || right.reason.startsWith('UPSTREAM')).toBe(true);
    expect(right.ms).toBeLessThan(700);

    // 127.0.0.71 was locked by the test above: the right password is refused there, over both protocols.
    const locked = await attempt(g.gw.httpPort, 'victim', 'RightPassword1', '127.0.0.71');
    expect([locked.status, locked.reason]).toEqual([407, 'TOO_MANY_FAILURES']);
    const plain = net.connect({ port: g.gw.httpPort, host: HOST, localAddress: '127.0.0.71' });
    plain.on('error', () => undefined);
    plain.write(`GET http://${HOST}:9/ HTTP/1.1\r\nHost: ${HOST}:9\r\nProxy-Authorization: ${basic('victim', 'RightPassword1')}\r\n\r\n`);
    const plainAnswer = await readResponse(plain);
    plain.destroy();
    expect([plainAnswer.status, plainAnswer.headers[REASON_HEADER.toLowerCase()]]).toEqual([407, 'TOO_MANY_FAILURES']);
    const socks = await new Promise<{ authStatus: number }>((resolve, reject) => {
      const s = net.connect({ port: g.gw.socksPort, host: HOST, localAddress: '127.0.0.71' });
      s.on('error', reject);
      const u = Buffer.from('victim');
      const p = Buffer.from('RightPassword1');
      s.write(Buffer.concat([Buffer.from([5, 1, 2, 1, u.length]), u, Buffer.from([p.length]), p]));
      let got = Buffer.alloc(0);
      s.on('data', (c: Buffer) => {
        got = Buffer.concat([got, c]);
        if (got.length >= 4) {
          s.destroy();
          resolve({ authStatus: got[3]! });
        }
      });
    });
    expect(socks.authStatus).toBe(1);
    // A plain request's failure is slowed too: five failures over CONNECT, the sixth over plain HTTP.
    for (let i = 0; i < 5; i++) await attempt(g.gw.httpPort, 'victim', `plain${i}`, '127.0.0.74');
    const t0 = Date.now();
    const slowPlain = net.connect({ port: g.gw.httpPort, host: HOST, localAddress: '127.0.0.74' });
    slowPlain.on('error', () => undefined);
    slowPlain.write(`GET http://${HOST}:9/ HTTP/1.1\r\nHost: ${HOST}:9\r\nProxy-Authorization: ${basic('victim', 'plain5')}\r\n\r\n`);
    const slowAnswer = await readResponse(slowPlain);
    slowPlain.destroy();
    expect([slowAnswer.status, slowAnswer.headers[REASON_HEADER.toLowerCase()]]).toEqual([407, 'BAD_CREDENTIALS']);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
    // Another address is not affected.
    const fine = await socksConnect(g.gw.socksPort, 'victim', 'RightPassword1', HOST, 9);
    fine.socket.destroy();
    expect(fine.authStatus).toBe(0);
  });

  it('counts failures per existing account for the store, and logs them per address without passwords', async () => {
    await waitFor(() => sink.total(victimId) >= 34, 5000, 'the failures to reach the sink');
    await attempt(g.gw.httpPort, 'nobody-here', 'whatever', '127.0.0.73');
    await waitFor(() => lines.some((l) => l.includes('127.0.0.73')), 5000, 'the aggregate log line');
    // Only accounts that exist are counted; an unknown name is a failure of the address alone.
    expect(new Set(sink.counts.map((c) => c.accountId))).toEqual(new Set([victimId]));
    // One line per interval: the address shows up in several, and the lockout's refusals in a later one
    // than its first failures, depending on how the intervals fell.
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; top?: { ip: string; failures: number; refused: number }[] });
    const locked71 = logged.filter((l) => l.top?.some((t) => t.ip === '127.0.0.71' && t.refused > 0));
    expect(locked71.length).toBeGreaterThan(0);
    expect(locked71.every((l) => l.msg === 'gateway: failed proxy logins')).toBe(true);
    const all = lines.join('\n');
    for (const secret of ['RightPassword1', 'guess1', 'wrong-again', 'whatever']) expect(all).not.toContain(secret);
  });
});

describe.each(DIALECTS)('failed proxy logins reach the customer on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('adds them to the proxy account and shows count and time in the proxies API', async () => {
    const admin = (await signedIn(t, 'admin')).token;
    await enableDirectEgress(t, admin);
    const c = await gatewayCustomer(t, admin, [[1024 ** 3, 30]]);
    const gw = await startStoreGateway({ db: t.db.db, clock: t.clock, appSecret: t.config.APP_SECRET, host: HOST, httpPort: 0, socksPort: 0, allowPrivateDestinations: true, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, flushMs: 100 });
    try {
      await until(() => gw.cache.authenticate(c.username, PROXY_PASSWORD).ok, 10_000, 'the gateway to know the account');
      for (let i = 0; i < 3; i++) expect((await attempt(gw.gateway.httpPort, c.username, `Wrong${i}`)).status).toBe(407);
      const s = await socksConnect(gw.gateway.socksPort, `${c.username}-country-us`, 'Wrong9', HOST, 9);
      s.socket.destroy();
      expect(s.authStatus).toBe(1);
      const shown = await until(
        async () => {
          const res = await call(t.app, 'GET', '/api/proxy/dynamic', { token: c.token });
          const a = (res.body.data.items as { id: number; loginFailures: number; lastLoginFailureAt: string | null }[]).find((x) => x.id === c.accountId)!;
          return a.loginFailures === 4 && a;
        },
        10_000,
        'the failures in the proxies API',
      );
      expect(Date.now() - Date.parse(shown.lastLoginFailureAt!)).toBeLessThan(60_000);
    } finally {
      await gw.stop();
    }
  });
});
