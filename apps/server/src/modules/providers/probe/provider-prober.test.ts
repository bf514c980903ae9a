import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { Server as ProxyChainServer } from 'proxy-chain';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GIB } from '@resi/contract';
import { createUser, uniqueEmail } from '../../../../test/accounts';
import { call } from '../../../../test/auth-flows';
import { signedIn } from '../../../../test/commerce';
import { HOST, closedPort, startSilentServer, waitFor } from '../../../../test/gateway-fixtures';
import { text } from '../../../../test/i18n';
import { parseMail, startSmtpSink } from '../../../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../../../test/test-app';
import { addMs, iso } from '../../../lib/clock';
import { SEAL_LABELS, SealedBox } from '../../../lib/sealed-box';
import { createMailer } from '../../../mail/mailer';
import { ProviderRepository } from '../provider-repository';
import { SupplySettingsRepository } from '../supply-settings-repository';
import { dialThroughUpstream } from './probe-dial';
import { type NoticeDeps, ProviderNotices } from './provider-notices';
import { type ProbeRun, type ProberDeps, ProviderProber, RETRY_MIN_MS, dueReason, retryPauseMs } from './provider-prober';

/*
 * Active probes and the admins' provider mails (docs/gateway.md#active-probes) over real sockets on both stores:
 * a check server that answers the exit's country by the address the request came from (127.0.0.1 "US",
 * 127.0.0.2 "DE", 127.0.0.3 a 503), and upstream proxies leaving from those addresses; mails over a real SMTP
 * server. Breaker trips are written into `provider_health` as the gateways write them.
 */

const COUNTRY_BY_ADDRESS: Record<string, string> = { '127.0.0.1': 'US', '127.0.0.2': 'DE' };
const EXIT_US = '127.0.0.1';
const EXIT_DE = '127.0.0.2';
const EXIT_BLOCKED = '127.0.0.3';
/** Another API process holding the job's lease: the app's own timer never runs it, the test runs it when it wants. */
const OTHER_PROCESS = 'another-api-process';

interface Exit {
  port: number;
  url: string;
  /** Usernames of the CONNECTs it carried. */
  users: string[];
  close(): Promise<void>;
}

/** An upstream proxy whose exit leaves from `from`, or, with `byUser`, from the address the username picks. */
async function startExit(from: string, opts: { port?: number; byUser?: (username: string) => string } = {}): Promise<Exit> {
  const users: string[] = [];
  const server = new ProxyChainServer({
    port: opts.port ?? 0,
    host: HOST,
    prepareRequestFunction: ({ username }) => {
      users.push(username);
      return { localAddress: opts.byUser ? opts.byUser(username) : from };
    },
  });
  await server.listen();
  return { port: server.port, url: `http://${HOST}:${server.port}`, users, close: () => server.close(true) };
}

/**
 * A SOCKS5 upstream (RFC 1928 CONNECT, RFC 1929 username/password) whose exit leaves from `from`: just enough
 * server for a probe's one connection.
 */
async function startSocksExit(from: string, auth: { user: string; pass: string }): Promise<Exit> {
  const users: string[] = [];
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
        buf = buf.subarray(2 + buf[1]!);
        client.write(Buffer.from([5, 2]));
        stage = 'auth';
      }
      if (stage === 'auth') {
        const ulen = buf[1] ?? 255;
        const plen = buf[2 + ulen];
        if (plen === undefined || buf.length < 3 + ulen + plen) return;
        const user = buf.subarray(2, 2 + ulen).toString();
        const pass = buf.subarray(3 + ulen, 3 + ulen + plen).toString();
        buf = buf.subarray(3 + ulen + plen);
        users.push(user);
        if (user !== auth.user || pass !== auth.pass) return void client.end(Buffer.from([1, 1]));
        client.write(Buffer.from([1, 0]));
        stage = 'request';
      }
      // VER CMD RSV ATYP(1: IPv4, 3: name) ADDR PORT
      if (buf.length < 5) return;
      const end = buf[3] === 1 ? 10 : 7 + buf[4]!;
      if (buf.length < end) return;
      const host = buf[3] === 1 ? [...buf.subarray(4, 8)].join('.') : buf.subarray(5, end - 2).toString();
      client.removeListener('data', onData);
      client.pause();
      const target = net.connect({ host, port: buf.readUInt16BE(end - 2), localAddress: from }, () => {
        client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
        target.pipe(client).pipe(target);
        client.resume();
      });
      target.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as AddressInfo;
  return { port, url: `socks5://${HOST}:${port}`, users, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('probe rules', () => {
  const now = new Date('2026-12-20T10:00:00.000Z');
  const row = (o: object) => ({ provider_id: 1, state: 'up', since: iso(addMs(now, -3_600_000)), retry_at: null, last_error: null, last_probe_at: null, probe_ms: null, probe_country: null, country_mismatch: 0, notified_state: 'up', quota_notified_month: null, ...o }) as never;
  const settings = { checkUrl: 'http://check.test/', probeSeconds: 60 };

  it('the retry pause is the time down, from 30 s to 5 min (it doubles at each failed retry)', () => {
    expect(retryPauseMs(iso(addMs(now, -5_000)), now)).toBe(30_000);
    expect(retryPauseMs(iso(addMs(now, -30_000)), now)).toBe(30_000);
    expect(retryPauseMs(iso(addMs(now, -60_000)), now)).toBe(60_000);
    expect(retryPauseMs(iso(addMs(now, -120_000)), now)).toBe(120_000);
    expect(retryPauseMs(iso(addMs(now, -3_600_000)), now)).toBe(300_000);
  });

  it('due: a down provider once its pause is over; any other at its pace, and only with a check URL', () => {
    expect(dueReason(row({ state: 'down', retry_at: iso(now) }), settings, now)).toBe('retry');
    expect(dueReason(row({ state: 'down', retry_at: iso(addMs(now, 1)) }), settings, now)).toBeNull();
    expect(dueReason(row({ state: 'down', retry_at: iso(now) }), { ...settings, checkUrl: '' }, now)).toBe('retry');
    expect(dueReason(undefined, settings, now)).toBe('scheduled');
    expect(dueReason(undefined, { ...settings, checkUrl: '' }, now)).toBeNull();
    expect(dueReason(row({ last_probe_at: iso(addMs(now, -59_000)) }), settings, now)).toBeNull();
    expect(dueReason(row({ last_probe_at: iso(addMs(now, -60_000)) }), settings, now)).toBe('scheduled');
  });
});

describe.each(DIALECTS)('active provider probes on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let check: http.Server;
  let checkUrl: string;
  let deps: ProberDeps & NoticeDeps;
  let prober: ProviderProber;
  let notices: ProviderNotices;
  let mailer: ReturnType<typeof createMailer>;
  const admins: { email: string; lang: 'en' | 'zh-cn' }[] = [];
  let disabledAdmin: string;
  const created: number[] = [];
  const exits: Exit[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    check = http.createServer((req, res) => {
      const cc = COUNTRY_BY_ADDRESS[req.socket.remoteAddress ?? ''];
      if (!cc) return void res.writeHead(503).end('blocked');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ip: req.socket.remoteAddress, country_code: cc }));
    });
    await new Promise<void>((resolve) => check.listen(0, HOST, resolve));
    checkUrl = `http://${HOST}:${(check.address() as AddressInfo).port}/json`;
    t = await createTestApp(dialect, { SMTP_URL: sink.url });
    await t.db.db
      .insertInto('job_leases')
      .values({ name: 'provider_probes', holder: OTHER_PROCESS, expires_at: '2999-01-01T00:00:00.000Z' })
      .onConflict((oc) => oc.column('name').doUpdateSet({ holder: OTHER_PROCESS, expires_at: '2999-01-01T00:00:00.000Z' }))
      .execute();
    const first = await signedIn(t, 'admin');
    admin = first.token;
    const second = await signedIn(t, 'admin');
    await t.db.db.updateTable('users').set({ lang: 'zh-cn' }).where('id', '=', second.user.id).execute();
    admins.push({ email: first.user.email, lang: 'en' }, { email: second.user.email, lang: 'zh-cn' });
    disabledAdmin = (await createUser(t, { email: uniqueEmail('admin'), password: 'Passw0rd!x', role: 'admin', status: 'disabled' })).email;
    mailer = createMailer({ smtpUrl: sink.url, from: t.config.MAIL_FROM, dataDir: t.config.dataDir, log: { info: () => undefined } as never });
    const db = t.db.db;
    deps = {
      db,
      clock: t.clock,
      mailer,
      appName: t.config.APP_NAME,
      log: { warn: () => undefined, error: () => undefined },
      providers: new ProviderRepository(db, t.clock, new SealedBox(t.config.APP_SECRET, SEAL_LABELS.upstreamPassword), t.config.CURRENCY),
      settings: new SupplySettingsRepository(db, t.clock),
    };
    prober = new ProviderProber(deps);
    notices = new ProviderNotices(deps);
    await supply(checkUrl);
  });
  afterEach(async () => {
    // Each test's providers leave with it (deleted through the API), so later runs probe only their own.
    for (const id of created.splice(0)) await call(t.app, 'DELETE', `/api/manage/providers/${id}`, { token: admin, body: {} });
    for (const e of exits.splice(0)) await e.close();
  });
  afterAll(async () => {
    mailer?.close();
    await t?.close();
    await sink?.close();
    await new Promise((resolve) => check?.close(resolve));
  });

  async function supply(url: string): Promise<void> {
    const res = await call(t.app, 'POST', '/api/manage/supply', { token: admin, body: { directEgress: false, checkUrl: url, probeSeconds: 60 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  async function exit(from: string, opts?: Parameters<typeof startExit>[1]): Promise<Exit> {
    const e = await startExit(from, opts);
    exits.push(e);
    return e;
  }
  async function provider(name: string, body: Record<string, unknown>): Promise<number> {
    const res = await call(t.app, 'POST', '/api/manage/providers', {
      token: admin,
      body: { name, costPerGb: { amount: 100, currency: t.config.CURRENCY, from: iso(t.clock.now()).slice(0, 10) }, ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    created.push(res.body.data.id as number);
    return res.body.data.id as number;
  }
  /** The breaker's trip as a gateway writes it: down since `downForMs` ago, retried at `retryInMs` from now. */
  async function tripped(providerId: number, downForMs: number, retryInMs: number): Promise<void> {
    const now = t.clock.now();
    const values = { state: 'down' as const, since: iso(addMs(now, -downForMs)), retry_at: iso(addMs(now, retryInMs)), last_error: 'UPSTREAM_REFUSED' };
    await t.db.db
      .insertInto('provider_health')
      .values({ provider_id: providerId, ...values })
      .onConflict((oc) => oc.column('provider_id').doUpdateSet(values))
      .execute();
  }
  const health = (providerId: number) => t.db.db.selectFrom('provider_health').selectAll().where('provider_id', '=', providerId).executeTakeFirst();
  /** One run of the job: probes, then notices (provider-jobs.ts). */
  async function run(): Promise<ProbeRun> {
    const done = await prober.runDue();
    await notices.send();
    return done;
  }
  const mailsAbout = (name: string) =>
    sink.messages.map((m) => ({ to: m.to, ...parseMail(m.raw) })).filter((m) => m.subject.includes(name) || m.text.includes(name));

  it('a due down provider whose upstream is back is put up; one still dead stays down, its retry moved on and spaced out', async () => {
    const backPort = await closedPort();
    const back = await provider('Back', { upstreams: [{ url: `http://${HOST}:${backPort}`, country: 'US' }] });
    const dead = await provider('Dead', { upstreams: [{ url: `http://${HOST}:${await closedPort()}` }] });
    const resting = await provider('Resting', { upstreams: [{ url: (await exit(EXIT_US)).url }] });
    await tripped(back, 40_000, -1_000);
    await tripped(dead, 40_000, -1_000);
    await tripped(resting, 10_000, 20_000);
    await exit(EXIT_US, { port: backPort });

    const first = await run();
    expect(first.probed.sort()).toEqual([back, dead].sort());
    expect(first.restored).toEqual([back]);
    const now = t.clock.now();
    expect(await health(back)).toMatchObject({ state: 'up', since: iso(now), retry_at: null, last_error: null, probe_country: 'US', country_mismatch: 0, last_probe_at: iso(now) });
    expect((await health(back))!.probe_ms).toEqual(expect.any(Number));
    const deadRow = await health(dead);
    // Down 40 s: the next retry 40 s on (the pause doubles with the time down).
    expect(deadRow).toMatchObject({ state: 'down', since: iso(addMs(now, -40_000)), retry_at: iso(addMs(now, 40_000)), last_error: 'UPSTREAM_REFUSED', last_probe_at: iso(now) });
    // Still resting: untouched.
    expect(await health(resting)).toMatchObject({ state: 'down', last_probe_at: null, retry_at: iso(addMs(now, 20_000)) });

    // Nothing due a moment later; the dead one once its pause is over, then 80 s on.
    expect((await run()).probed).toEqual([]);
    t.clock.advance(40_000);
    const second = await run();
    expect(second.probed).toContain(dead);
    expect(second.probed).not.toContain(back);
    expect((await health(dead))!.retry_at).toBe(iso(addMs(t.clock.now(), 80_000)));
  });

  it('an exit in DE behind an upstream tagged US is flagged; a template is probed for its region with a fresh session; upstreams take turns', async () => {
    const de = await exit(EXIT_DE);
    const mislabelled = await provider('Mislabelled', { upstreams: [{ url: de.url, country: 'US' }] });
    const templated = await exit(EXIT_US, { byUser: (u) => (u.includes('-de-') ? EXIT_DE : EXIT_US) });
    const template = await provider('Templated', { template: `http://cust-{country}-sid-{session}:pw@${HOST}:${templated.port}`, regions: ['DE', 'FR'] });
    const us = await exit(EXIT_US);
    const de2 = await exit(EXIT_DE);
    const pair = await provider('Pair', { upstreams: [{ url: us.url, country: 'US' }, { url: de2.url, country: 'DE' }] });

    await run();
    expect(await health(mislabelled)).toMatchObject({ state: 'up', probe_country: 'DE', country_mismatch: 1, last_error: 'COUNTRY_MISMATCH' });
    expect(await health(template)).toMatchObject({ state: 'up', probe_country: 'DE', country_mismatch: 0, last_error: null });
    expect(await health(pair)).toMatchObject({ state: 'up', country_mismatch: 0 });

    t.clock.advance(60_000);
    await run();
    // Each upstream of the pair once, each answering its own country.
    expect([us.users.length, de2.users.length]).toEqual([1, 1]);
    expect(await health(pair)).toMatchObject({ probe_country: expect.stringMatching(/^(US|DE)$/), country_mismatch: 0 });
    // The template rendered for its first region, a new session each time.
    expect(templated.users).toHaveLength(2);
    expect(templated.users.every((u) => /^cust-de-sid-probe[0-9a-f]{12}$/.test(u))).toBe(true);
    expect(new Set(templated.users).size).toBe(2);
  });

  it('an up provider failing its scheduled probe goes down, with the reason: a dead upstream, an exit answered 503', async () => {
    const refused = await provider('Refusing', { upstreams: [{ url: `http://${HOST}:${await closedPort()}` }] });
    const blocked = await provider('Blocked', { upstreams: [{ url: (await exit(EXIT_BLOCKED)).url }] });
    const fine = await provider('Fine', { upstreams: [{ url: (await exit(EXIT_US)).url }] });
    const result = await run();
    expect(result.takenDown.sort()).toEqual([refused, blocked].sort());
    const now = t.clock.now();
    const down = { state: 'down', since: iso(now), retry_at: iso(addMs(now, RETRY_MIN_MS)) };
    expect(await health(refused)).toMatchObject({ ...down, last_error: 'UPSTREAM_REFUSED', probe_country: null });
    expect(await health(blocked)).toMatchObject({ ...down, last_error: 'HTTP 503' });
    expect(await health(fine)).toMatchObject({ state: 'up', last_error: null, probe_country: 'US' });
  });

  it('a probe gives up at its deadline: an upstream that never answers is UPSTREAM_TIMEOUT', async () => {
    const silent = await startSilentServer();
    try {
      const id = await provider('Silent', { upstreams: [{ url: `http://${HOST}:${silent.port}` }] });
      await provider('Prompt', { upstreams: [{ url: (await exit(EXIT_US)).url }] });
      expect((await new ProviderProber({ ...deps, timeoutMs: 1_000 }).runDue()).takenDown).toEqual([id]);
      expect(await health(id)).toMatchObject({ state: 'down', last_error: 'UPSTREAM_TIMEOUT' });
    } finally {
      await silent.close();
    }
  });

  it('a gateway trip that lands while a retry is under way wins over the retry\u2019s pass', async () => {
    const port = await closedPort();
    const id = await provider('Raced', { upstreams: [{ url: `http://${HOST}:${port}` }] });
    await tripped(id, 60_000, -1_000);
    await exit(EXIT_US, { port });
    const retripped = iso(addMs(t.clock.now(), -1));
    // A prober whose dial lets a gateway trip the breaker again after the row was read.
    const raced = new ProviderProber({
      ...deps,
      dial: async (url, host, targetPort, ms) => {
        await t.db.db.updateTable('provider_health').set({ since: retripped, retry_at: iso(addMs(t.clock.now(), 30_000)), last_error: 'UPSTREAM_TIMEOUT' }).where('provider_id', '=', id).execute();
        return dialThroughUpstream(url, host, targetPort, ms);
      },
    });
    const result = await raced.runDue();
    expect(result).toEqual({ probed: [id], restored: [], takenDown: [] });
    // Still down as the gateway left it; the probe itself recorded.
    expect(await health(id)).toMatchObject({ state: 'down', since: retripped, last_error: 'UPSTREAM_TIMEOUT', probe_country: 'US', last_probe_at: iso(t.clock.now()) });
  });

  it('one mail per transition to each active admin in their language (down, then up), none without a change; one at 80 % of the month\u2019s quota', async () => {
    const port = await closedPort();
    const name = `Flaky-${dialect}`;
    const id = await provider(name, { upstreams: [{ url: `http://${HOST}:${port}` }] });
    // A provider that keeps passing: the check URL answers, so a failing probe takes a provider out.
    await provider(`Steady-${dialect}`, { upstreams: [{ url: (await exit(EXIT_US)).url }] });
    await run();
    expect((await health(id))!.state).toBe('down');
    const down = mailsAbout(name);
    expect(down).toHaveLength(2);
    for (const a of admins) {
      const m = down.find((x) => x.to.includes(a.email));
      expect(m?.subject).toBe(text(a.lang, 'mail.provider.down.subject', { app: t.config.APP_NAME, provider: name }));
      expect(m?.text.trim()).toBe(text(a.lang, 'mail.provider.down.body', { provider: name, reason: 'UPSTREAM_REFUSED' }));
    }
    expect(sink.messages.some((m) => m.to.includes(disabledAdmin))).toBe(false);
    expect((await health(id))!.notified_state).toBe('down');

    // A failed retry is no news; nor is a run with nothing due.
    t.clock.advance(RETRY_MIN_MS);
    await run();
    await run();
    expect(mailsAbout(name)).toHaveLength(2);

    await exit(EXIT_US, { port });
    t.clock.advance(RETRY_MIN_MS);
    await run();
    expect((await health(id))!.state).toBe('up');
    const up = mailsAbout(name).slice(2);
    expect(up.map((m) => [m.to[0], m.subject]).sort()).toEqual(admins.map((a) => [a.email, text(a.lang, 'mail.provider.up.subject', { app: t.config.APP_NAME, provider: name })]).sort());
    await run();
    expect(mailsAbout(name)).toHaveLength(4);

    // The quota: 80 % of this month's bytes (last month's do not count), told once.
    const quotaName = `Metered-${dialect}`;
    const metered = await provider(quotaName, { upstreams: [{ url: (await exit(EXIT_US)).url }], monthlyQuotaGb: 10 });
    const today = iso(t.clock.now()).slice(0, 10);
    const monthStart = `${today.slice(0, 7)}-01`;
    const lastMonth = iso(addMs(new Date(`${monthStart}T00:00:00.000Z`), -86_400_000)).slice(0, 10);
    const use = (day: string, country: string, bytes: number) =>
      t.db.db
        .insertInto('provider_usage_daily')
        .values({ day, provider_id: metered, country, bytes, revenue_micro: 0 })
        .onConflict((oc) => oc.columns(['day', 'provider_id', 'country']).doUpdateSet({ bytes }))
        .execute();
    await use(lastMonth, 'US', 9 * GIB);
    await use(monthStart, 'US', 4 * GIB);
    await use(today, '', Math.round(3.9 * GIB));
    await run();
    expect(mailsAbout(quotaName)).toEqual([]);
    await use(today, '', 4 * GIB);
    await run();
    await run();
    const quota = mailsAbout(quotaName);
    expect(quota).toHaveLength(2);
    const zh = quota.find((m) => m.to.includes(admins[1]!.email))!;
    expect(zh.subject).toBe(text('zh-cn', 'mail.provider.quota.subject', { app: t.config.APP_NAME, provider: quotaName, percent: 80 }));
    expect(zh.text.trim()).toBe(text('zh-cn', 'mail.provider.quota.body', { provider: quotaName, percent: 80, used: '8 GB', quota: '10 GB' }));
    expect((await health(metered))!.quota_notified_month).toBe(today.slice(0, 7));
  });

  it('through a SOCKS5 upstream with its credentials; a wrong password is UPSTREAM_AUTH', async () => {
    const socks = await startSocksExit(EXIT_DE, { user: 'buyer', pass: 's3cret' });
    exits.push(socks);
    const good = await provider('Socks', { upstreams: [{ url: `socks5://buyer:s3cret@${HOST}:${socks.port}`, country: 'DE' }] });
    const bad = await provider('Socks-bad', { upstreams: [{ url: `socks5://buyer:wrong@${HOST}:${socks.port}`, country: 'DE' }] });
    await run();
    expect(await health(good)).toMatchObject({ state: 'up', probe_country: 'DE', country_mismatch: 0, last_error: null });
    expect(await health(bad)).toMatchObject({ state: 'down', last_error: 'UPSTREAM_AUTH' });
    expect(socks.users).toEqual(['buyer', 'buyer']);
  });

  it('an https check URL: the certificate is checked (a CA the prober does not trust fails the probe)', async () => {
    const pems = await generate([{ name: 'commonName', value: HOST }], { keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: HOST }] }] });
    const secure = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => res.end(JSON.stringify({ countryCode: COUNTRY_BY_ADDRESS[req.socket.remoteAddress ?? ''] })));
    await new Promise<void>((resolve) => secure.listen(0, HOST, resolve));
    await supply(`https://${HOST}:${(secure.address() as AddressInfo).port}/json`);
    try {
      const id = await provider('Secure', { upstreams: [{ url: (await exit(EXIT_DE)).url, country: 'DE' }] });
      expect((await new ProviderProber({ ...deps, trust: pems.cert }).runDue()).probed).toEqual([id]);
      expect(await health(id)).toMatchObject({ state: 'up', probe_country: 'DE', last_error: null });
      // A prober that does not trust the CA: the failure is recorded; with no probe passing, nobody is taken out.
      t.clock.advance(60_000);
      expect(await new ProviderProber({ ...deps }).runDue()).toEqual({ probed: [id], restored: [], takenDown: [] });
      expect(await health(id)).toMatchObject({ state: 'up', probe_country: null, last_error: 'TLS DEPTH_ZERO_SELF_SIGNED_CERT' });
    } finally {
      await supply(checkUrl);
      await new Promise((resolve) => secure.close(resolve));
    }
  });

  it('a check URL that fails through every provider takes none out: the check service is in doubt, not the providers', async () => {
    await supply(`http://${HOST}:${await closedPort()}/json`);
    try {
      const e = await exit(EXIT_US);
      const a = await provider('Doubt-a', { upstreams: [{ url: e.url }] });
      const b = await provider('Doubt-b', { upstreams: [{ url: e.url }] });
      const down = await provider('Doubt-down', { upstreams: [{ url: e.url }] });
      await tripped(down, 60_000, -1_000);
      const result = await new ProviderProber(deps).runDue();
      expect(result.probed.sort()).toEqual([a, b, down].sort());
      expect(result.takenDown).toEqual([]);
      for (const id of [a, b]) expect(await health(id)).toMatchObject({ state: 'up', last_probe_at: iso(t.clock.now()), last_error: expect.stringMatching(/^UPSTREAM_/) });
      // A down one stays down: its retry failed like the others' probes, and waits its pause.
      expect(await health(down)).toMatchObject({ state: 'down', retry_at: iso(addMs(t.clock.now(), 60_000)) });
    } finally {
      await supply(checkUrl);
    }
  });

  it('nothing probes a paused or deleted provider; no mail about them', async () => {
    const e = await exit(EXIT_US);
    const pausedName = `Paused-${dialect}`;
    const paused = await provider(pausedName, { upstreams: [{ url: e.url }], status: 'paused' });
    const gone = await provider(`Gone-${dialect}`, { upstreams: [{ url: e.url }] });
    await tripped(paused, 60_000, -1_000);
    await tripped(gone, 60_000, -1_000);
    expect((await call(t.app, 'DELETE', `/api/manage/providers/${gone}`, { token: admin, body: {} })).status).toBe(200);
    const result = await run();
    expect(result.probed).not.toContain(paused);
    expect(result.probed).not.toContain(gone);
    expect(e.users).toEqual([]);
    expect(await health(paused)).toMatchObject({ state: 'down', last_probe_at: null });
    expect(await health(gone)).toMatchObject({ state: 'down', last_probe_at: null });
    expect(mailsAbout(pausedName)).toEqual([]);
  });

  it('without a check URL: no scheduled probes; a down provider is back at its retry time, untried', async () => {
    await supply('');
    try {
      const e = await exit(EXIT_US);
      const due = await provider('Due', { upstreams: [{ url: e.url }] });
      const later = await provider('Later', { upstreams: [{ url: e.url }] });
      const never = await provider('Unprobed', { upstreams: [{ url: e.url }] });
      await tripped(due, 60_000, -1_000);
      await tripped(later, 10_000, 20_000);
      const result = await run();
      expect(result).toEqual({ probed: [], restored: [due], takenDown: [] });
      expect(await health(due)).toMatchObject({ state: 'up', since: iso(t.clock.now()), retry_at: null, last_probe_at: null });
      expect((await health(later))!.state).toBe('down');
      expect(await health(never)).toBeUndefined();
      expect(e.users).toEqual([]);
    } finally {
      await supply(checkUrl);
    }
  });

  it('the providers module runs the job under its lease', async () => {
    const id = await provider('Scheduled', { upstreams: [{ url: (await exit(EXIT_US)).url }] });
    // Hand the lease to this app's scheduler: its tick (or its timer's) probes the provider.
    await t.db.db.updateTable('job_leases').set({ holder: t.app.jobs.holder }).where('name', '=', 'provider_probes').execute();
    try {
      await t.app.jobs.tickNow('provider_probes');
      await waitFor(async () => (await health(id))?.probe_country === 'US', 10_000, 'the scheduled job to probe');
    } finally {
      await t.db.db.updateTable('job_leases').set({ holder: OTHER_PROCESS, expires_at: '2999-01-01T00:00:00.000Z' }).where('name', '=', 'provider_probes').execute();
    }
  });
});
