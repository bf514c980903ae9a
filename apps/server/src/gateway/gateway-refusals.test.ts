import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAuthority, HOST, basic, connectTunnel, socksConnect, startByteOrigin, startGateway, startHttpOrigin } from '../../test/gateway-fixtures';
import type { Refusal } from './ports';
import { SOCKS_AUTH_FAILURE, SOCKS_REPLY, STATUSES } from './statuses';
import { UpstreamExitChooser } from './upstream-exit-chooser';

/** One account per refusal, and the username that provokes it. */
const authority = new FakeAuthority();
authority.add('goodacct');
authority.add('disabled', { disabled: true });
authority.add('broke001', { balance: 0 });
authority.add('capped01', { cap: 0 });
const CASES: [Refusal, string, string, number, number | null][] = [
  // reason, username, password, HTTP status, SOCKS REP (null: refused in RFC 1929 auth)
  ['BAD_CREDENTIALS', 'goodacct', 'wrong', 407, null],
  ['BAD_CREDENTIALS', 'nobody01', 'pw', 407, null],
  ['BAD_PARAMS', 'goodacct-country-xx', 'pw', 400, SOCKS_REPLY.NOT_ALLOWED],
  ['BAD_PARAMS', 'goodacct-session-s-life-1500', 'pw', 400, SOCKS_REPLY.NOT_ALLOWED],
  ['ACCOUNT_DISABLED', 'disabled', 'pw', 403, SOCKS_REPLY.NOT_ALLOWED],
  ['NO_TRAFFIC', 'broke001', 'pw', 402, SOCKS_REPLY.NOT_ALLOWED],
  ['ACCOUNT_CAP', 'capped01', 'pw', 403, SOCKS_REPLY.NOT_ALLOWED],
  ['NO_SUPPLY', 'goodacct-country-jp', 'pw', 502, SOCKS_REPLY.NETWORK_UNREACHABLE],
];

describe('refusals with their reason, over both protocols', () => {
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let web: Awaited<ReturnType<typeof startHttpOrigin>>;
  let g: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    origin = await startByteOrigin();
    web = await startHttpOrigin();
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }) }, authority);
  });
  afterAll(async () => {
    await g.gw.stop();
    await Promise.all([origin.close(), web.close()]);
  });

  it('documents every refusal once, with an HTTP status and a SOCKS answer', () => {
    for (const [reason, , , status, rep] of CASES) expect([STATUSES[reason].http, STATUSES[reason].socks]).toEqual([status, rep]);
  });

  it.each(CASES)('%s (%s): CONNECT answers its status, reason header and body', async (reason, user, pass, status) => {
    const t = await connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, basic(user, pass));
    expect(t.status).toBe(status);
    expect(t.headers['x-gateway-reason']).toBe(reason);
    expect(t.headers.connection).toBe('close');
    if (reason !== 'BAD_PARAMS') expect(t.body).toBe(`${reason}: ${STATUSES[reason].message}`);
    if (status === 407) expect(t.headers['proxy-authenticate']).toBe('Basic realm="resi-gateway"');
  });

  it.each(CASES)('%s (%s): a plain HTTP request answers the same', async (reason, user, pass, status) => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: HOST, port: g.gw.httpPort, path: `http://${HOST}:${web.port}/bytes/10`, agent: false, headers: { 'proxy-authorization': basic(user, pass) } }, resolve).on('error', reject),
    );
    res.resume();
    expect([res.statusCode, res.headers['x-gateway-reason']]).toEqual([status, reason]);
  });

  it.each(CASES)('%s (%s): SOCKS5 answers its RFC 1929 status or RFC 1928 reply code', async (_reason, user, pass, _status, rep) => {
    const s = await socksConnect(g.gw.socksPort, user, pass, HOST, origin.port);
    if (rep === null) {
      expect(s.authStatus).toBe(SOCKS_AUTH_FAILURE);
    } else {
      expect(s.authStatus).toBe(0);
      expect(s.rep).toBe(rep);
    }
    await new Promise((r) => (s.socket.destroyed ? r(null) : s.socket.once('close', r).resume()));
  });

  it('asks for credentials with 407 when none are sent', async () => {
    const t = await connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, null);
    expect([t.status, t.headers['x-gateway-reason'], t.headers['proxy-authenticate']]).toEqual([407, 'BAD_CREDENTIALS', 'Basic realm="resi-gateway"']);
  });

  it('BAD_PARAMS names the parameter that is wrong, over CONNECT and plain HTTP', async () => {
    const t = await connectTunnel(g.gw.httpPort, `${HOST}:${origin.port}`, basic('goodacct-country-us-session-s-life-1500', 'pw'));
    expect([t.status, t.headers['x-gateway-reason'], t.headers['x-gateway-param']]).toEqual([400, 'BAD_PARAMS', 'life']);
    expect(t.body).toBe(`BAD_PARAMS: life "1500" must be a whole number of minutes from 1 to 1440. ${STATUSES.BAD_PARAMS.message}`);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: HOST, port: g.gw.httpPort, path: `http://${HOST}:${web.port}/bytes/10`, agent: false, headers: { 'proxy-authorization': basic('goodacct-county-us', 'pw') } }, resolve).on('error', reject),
    );
    const body = await new Promise<string>((resolve) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text));
    });
    expect([res.statusCode, res.headers['x-gateway-param']]).toEqual([400, 'key']);
    expect(body).toBe(`BAD_PARAMS: "county" is not a parameter (country, state, city, session, life). ${STATUSES.BAD_PARAMS.message}`);
  });

  it('answers 400 BAD_TARGET to a CONNECT without a usable host:port', async () => {
    for (const target of [`${HOST}`, `${HOST}:0`, `${HOST}:70000`, 'user@host:80', '[::1:80']) {
      const t = await connectTunnel(g.gw.httpPort, target, basic('goodacct', 'pw'));
      expect([t.status, t.headers['x-gateway-reason']]).toEqual([400, 'BAD_TARGET']);
    }
  });

  it('answers SOCKS5 clients that offer no username/password method with 0xFF, and BIND with 0x07', async () => {
    const noAuth = net.connect(g.gw.socksPort, HOST);
    noAuth.write(Buffer.from([5, 1, 0]));
    const answer = await new Promise<Buffer>((resolve) => noAuth.once('data', resolve));
    expect([...answer]).toEqual([5, 0xff]);
    noAuth.destroy();

    const bind = net.connect(g.gw.socksPort, HOST);
    const u = Buffer.from('goodacct');
    bind.write(Buffer.from([5, 1, 2]));
    bind.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([2]), Buffer.from('pw')]));
    bind.write(Buffer.from([5, 2, 0, 1, 127, 0, 0, 1, 0, 80]));
    let got = Buffer.alloc(0);
    bind.on('data', (c: Buffer) => (got = Buffer.concat([got, c])));
    await new Promise((r) => bind.once('close', r));
    expect([...got]).toEqual([5, 2, 1, 0, 5, SOCKS_REPLY.COMMAND_NOT_SUPPORTED, 0, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('drops a SOCKS5 client that stalls in the handshake', async () => {
    const slow = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }), handshakeTimeoutMs: 200 }, authority);
    try {
      const s = net.connect(slow.gw.socksPort, HOST);
      s.on('error', () => undefined);
      s.write(Buffer.from([5, 1]));
      const t0 = Date.now();
      await new Promise((r) => s.once('close', r).resume());
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      await slow.gw.stop();
    }
  });
});
