import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { text } from '../../../test/i18n';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

/*
 * A static login leaves through its row's upstream, which the gateway dials without the guard of direct
 * egress: an upstream on loopback reached the API port, one on 169.254.169.254 the metadata service.
 * With the test-only switch off, as in production, import refuses them.
 */
describe.each(DIALECTS)('static upstream hosts on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let regionId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect, { GATEWAY_ALLOW_PRIVATE_DESTINATIONS: 'false' });
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[0].id;
  });
  afterAll(() => t?.close());

  const rows = async () => Number((await t.db.db.selectFrom('static_inventory').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('refuses upstreams on loopback, private, link-local and other non-public addresses, names that resolve to them included, and takes a public one', async () => {
    const bad = [
      `http://isp:pw@127.0.0.1:${t.config.PORT} 8.8.8.8`,
      'http://169.254.169.254:80 8.8.4.4',
      '10.0.0.5:3128:isp:pw',
      '192.168.1.1:3128:isp:pw',
      'socks5://isp:pw@[::1]:1080 9.9.9.9',
      'http://isp:pw@[::ffff:127.0.0.1]:3128 9.9.9.10',
      'http://isp:pw@[fd00::1]:3128 9.9.9.11',
      '203.0.113.20:3128:isp:pw',
      'http://isp:pw@localhost:3128 9.9.9.12',
    ];
    const before = await rows();
    const res = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, lang: 'zh', body: { regionId, lines: [...bad, '1.1.1.1:3128:isp:pw'].join('\n') } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 1, duplicate: 0, invalid: bad.length });
    const reasons = (res.body.data.results as { line: number; status: string; reason: string | null }[]).map((r) => [r.line, r.status, r.reason]);
    expect(reasons).toEqual([...bad.map((_, i) => [i + 1, 'invalid', text('zh', 'staticImport.privateHost')]), [bad.length + 1, 'created', null]]);
    expect(await rows()).toBe(before + 1);

    // Nothing of a paste of refused lines is stored, and none of their addresses is taken for later.
    const again = await call(t.app, 'POST', '/api/manage/static-inventory', { token: admin, lang: 'en', body: { regionId, lines: bad.slice(0, 3).join('\n') } });
    expect(again.body.data).toMatchObject({ created: 0, invalid: 3 });
    expect(again.body.data.results[0].reason).toBe(text('en', 'staticImport.privateHost'));
    expect(await rows()).toBe(before + 1);
    expect((await call(t.app, 'GET', '/api/manage/static-inventory?ip=8.8.8.8', { token: admin })).body.data.total).toBe(0);
  });
});
