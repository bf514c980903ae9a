import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

let n = 0;
const uname = () => `allow_${process.pid % 1000}_${++n}`;
/** Each test its own /24 of TEST-NET-2 style space, so tests never collide on the one-owner rule. */
let net = 0;
const freshNet = () => `198.18.${++net}`;

describe.each(DIALECTS)('allowlist on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { ALLOWLIST_MAX: '3' });
  });
  afterAll(() => t.close());

  async function account(token: string): Promise<number> {
    const res = await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username: uname(), password: 'Secret123' } });
    return res.body.data.id as number;
  }

  it('adds, labels, lists and removes addresses; no address adds the caller\'s own, in canonical form', async () => {
    const { token } = await signedIn(t);
    const id = await account(token);
    const base = freshNet();
    const mine = await call(t.app, 'POST', '/api/proxy/allowlist', { token, ip: `${base}.9`, body: { proxyAccountId: id, label: 'my server' } });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ address: `${base}.9`, label: 'my server', proxyAccountId: id, staticProxyId: null });
    const range = await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: id, address: `${base}.77/24` } });
    expect(range.body.data.address).toBe(`${base}.0/24`);
    const v6 = await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: id, address: '2001:DB8:0:1::5/64' } });
    expect(v6.body.data.address).toBe('2001:db8:0:1::/64');
    // Asking again for an address it holds changes nothing.
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: id, address: `${base}.9` } })).body.data.id).toBe(mine.body.data.id);

    const listed = await call(t.app, 'GET', `/api/proxy/allowlist?proxyAccountId=${id}`, { token, ip: `${base}.200` });
    expect(listed.body.data.callerAddress).toBe(`${base}.200`);
    expect(listed.body.data.items.map((e: { address: string }) => e.address)).toEqual([`${base}.9`, `${base}.0/24`, '2001:db8:0:1::/64']);

    expect((await call(t.app, 'DELETE', `/api/proxy/allowlist/${mine.body.data.id}`, { token })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/proxy/allowlist/${mine.body.data.id}`, { token })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/proxy/allowlist', { token })).body.data.items).toHaveLength(2);
  });

  it('an address is one account\'s only, overlaps included, and the refusal names no one', async () => {
    const alice = await signedIn(t);
    const bob = await signedIn(t);
    const a = await account(alice.token);
    const b = await account(bob.token);
    const a2 = await account(alice.token);
    const base = freshNet();
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token: alice.token, body: { proxyAccountId: a, address: `${base}.0/24` } })).status).toBe(200);
    for (const [token, target, address] of [
      [bob.token, b, `${base}.5`],
      [bob.token, b, `${base}.0/25`],
      [alice.token, a2, `${base}.5`],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: target, address }, lang: 'zh' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'ALLOWLIST_TAKEN', message: text('zh', 'errors.ALLOWLIST_TAKEN') });
    }
    expect((await call(t.app, 'GET', '/api/proxy/allowlist', { token: bob.token })).body.data.items).toEqual([]);
  });

  it('a deleted account frees its addresses for anyone', async () => {
    const alice = await signedIn(t);
    const bob = await signedIn(t);
    const a = await account(alice.token);
    const address = `${freshNet()}.1`;
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token: alice.token, body: { proxyAccountId: a, address } })).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${a}`, { token: alice.token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/proxy/allowlist', { token: alice.token })).body.data.items).toEqual([]);
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token: bob.token, body: { proxyAccountId: await account(bob.token), address } })).status).toBe(200);
  });

  it('two customers listing the same address at once: exactly one gets it', async () => {
    const address = `${freshNet()}.1`;
    const users = await Promise.all(Array.from({ length: 6 }, () => signedIn(t)));
    const ids = await Promise.all(users.map((u) => account(u.token)));
    const results = await Promise.all(users.map((u, i) => call(t.app, 'POST', '/api/proxy/allowlist', { token: u.token, body: { proxyAccountId: ids[i], address } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.code === 'ALLOWLIST_TAKEN')).toHaveLength(5);
  });

  it('refuses a full list, a bad or too wide address, a stranger\'s account and a bad body, changing nothing', async () => {
    const { token } = await signedIn(t);
    const stranger = await signedIn(t);
    const id = await account(token);
    const base = freshNet();
    for (const i of [1, 2, 3]) expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: id, address: `${base}.${i}` } })).status).toBe(200);
    const full = await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: id, address: `${base}.4` }, lang: 'zh-cn' });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ code: 'ALLOWLIST_FULL', message: text('zh-cn', 'errors.ALLOWLIST_FULL', { max: 3 }) });

    const other = await account(token);
    for (const address of ['10.0.0.0/8', '2001:db8::/48', 'example.com', '1.2.3', '300.1.1.1']) {
      const res = await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: other, address } });
      expect(res.status, address).toBe(400);
      expect(res.body.code, address).toBe('ALLOWLIST_ADDRESS');
    }
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token: stranger.token, body: { proxyAccountId: id, address: `${base}.9` } })).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: other, staticProxyId: 1, address: `${base}.9` } })).body.code).toBe('VALIDATION_FAILED');
    expect((await call(t.app, 'GET', `/api/proxy/allowlist?proxyAccountId=${id}`, { token: stranger.token })).status).toBe(404);
    const mine = (await call(t.app, 'GET', '/api/proxy/allowlist', { token })).body.data.items;
    expect(mine).toHaveLength(3);
    expect((await call(t.app, 'DELETE', `/api/proxy/allowlist/${mine[0].id}`, { token: stranger.token })).status).toBe(404);
  });

  it('only public addresses unless the operator allows private ones', async () => {
    const strict = await createTestApp(dialect, { ALLOWLIST_PRIVATE_ADDRESSES: 'false' });
    try {
      const { token } = await signedIn(strict);
      const res = await call(strict.app, 'POST', '/api/proxy/dynamic', { token, body: { username: uname(), password: 'Secret123' } });
      for (const address of ['127.0.0.2', '192.168.1.0/24', 'fd00::/64']) {
        expect((await call(strict.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: res.body.data.id, address } })).body.code, address).toBe('ALLOWLIST_ADDRESS');
      }
      expect((await call(strict.app, 'POST', '/api/proxy/allowlist', { token, body: { proxyAccountId: res.body.data.id, address: '8.8.4.0/24' } })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
