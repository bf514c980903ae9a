import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signInAgain, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { addressPool, importInventory } from '../../../test/static-kit';
import { DAY } from '../../lib/clock';
import { type CutoffEvent, LocalCutoffBus } from '../../lib/cutoff-bus';

const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

describe.each(DIALECTS)('the life of a static IP on %s', (dialect) => {
  let t: TestApp;
  // What the gateways are told at once (they would learn it at their next read anyway).
  const bus = new LocalCutoffBus();
  const events: CutoffEvent[] = [];
  let admin: string;
  let adminEmail: string;
  let regionId: number;
  let businessId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { cutoffs: bus });
    bus.subscribe((e) => void events.push(e));
    await seedCatalogue(t);
    const a = await signedIn(t, 'admin');
    [admin, adminEmail] = [a.token, a.user.email];
    regionId = (await call(t.app, 'GET', '/api/static-region')).body.data.items[1].id;
    businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id;
  });
  afterAll(() => t.close());

  const addresses = addressPool('198.51.100');
  const stockUp = (n: number) => importInventory(t, admin, { regionId, businessIds: [businessId], ips: addresses(n) });
  const lifecycle = () => t.app.jobs.tickNow('static_lifecycle');
  /** Moves the test clock, then signs the admin and `customer` in again: sessions do not live for weeks. */
  async function advance(ms: number, customer?: { user: { email: string }; token: string }) {
    t.clock.advance(ms);
    admin = await signInAgain(t, adminEmail);
    if (customer) customer.token = await signInAgain(t, customer.user.email);
  }
  const rowOf = async (ip: string) => (await call(t.app, 'GET', `/api/manage/static-inventory?ip=${ip}`, { token: admin })).body.data.items[0] as { id: number; status: string; cooldownUntil: string | null };
  const mine = async (token: string) => (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items as { id: number; ip: string; status: string; expiresAt: string; username: string; password: string; replacementsLeft: number }[];
  const history = async (id: number) =>
    ((await call(t.app, 'GET', `/api/manage/static-inventory/${id}/history`, { token: admin })).body.data.items as { event: string; reason: string | null }[]).map((e) => [e.event, e.reason]);

  it('buy → active → grace (renewable, same IP back) → released → cooldown → free and sold again', async () => {
    const [ip] = await stockUp(1);
    const customer = await signedIn(t);
    const grant = await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: customer.user.id, regionId, businessId, quantity: 1, days: 1, note: 'trial' } });
    expect(grant.status).toBe(200);
    const [a] = await mine(customer.token);
    expect(a).toMatchObject({ ip, status: 'active' });
    expect((await rowOf(ip!)).status).toBe('allocated');

    // Past its expiry: grace. The IP stays the customer's, and a renewal brings it back unchanged.
    await advance(DAY + 1000, customer);
    await lifecycle();
    expect((await mine(customer.token))[0]).toMatchObject({ id: a!.id, status: 'grace' });
    expect((await rowOf(ip!)).status).toBe('grace');
    const renew = await call(t.app, 'POST', '/api/buy/static-renew', { token: customer.token, body: { staticProxyIds: [a!.id], days: 30, payMethod: 'sandbox' } });
    expect(renew.status).toBe(200);
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${renew.body.data.order.orderNo}/pay`, ...form });
    const renewed = (await mine(customer.token))[0]!;
    expect(renewed).toMatchObject({ id: a!.id, ip, status: 'active', username: a!.username, password: a!.password });
    expect(new Date(renewed.expiresAt).getTime()).toBe(t.clock.now().getTime() + 30 * DAY);
    expect((await rowOf(ip!)).status).toBe('allocated');

    // Expired again and not renewed: grace for STATIC_GRACE_DAYS, then released; the row rests, then is sold again.
    const expiring = (days: number) => call(t.app, 'GET', `/api/proxy/static?expiringDays=${days}`, { token: customer.token });
    await advance(25 * DAY, customer);
    expect((await expiring(3)).body.data.total).toBe(0);
    expect((await expiring(7)).body.data.items.map((x: { id: number }) => x.id)).toEqual([a!.id]);
    await advance(5 * DAY + 1000, customer);
    await lifecycle();
    expect((await mine(customer.token))[0]!.status).toBe('grace');
    expect((await expiring(7)).body.data.total).toBe(1);
    await advance(t.config.STATIC_GRACE_DAYS * DAY, customer);
    await lifecycle();
    await lifecycle();
    expect((await mine(customer.token))[0]!.status).toBe('released');
    expect((await expiring(7)).body.data.total).toBe(0);
    const row = await rowOf(ip!);
    expect(row.status).toBe('cooldown');
    expect(new Date(row.cooldownUntil!).getTime()).toBe(t.clock.now().getTime() + t.config.STATIC_COOLDOWN_DAYS * DAY);
    const late = await call(t.app, 'POST', '/api/buy/static-renew', { token: customer.token, body: { staticProxyIds: [a!.id], days: 30, payMethod: 'sandbox' } });
    expect([late.status, late.body.code]).toEqual([409, 'STATIC_RELEASED']);
    const other = await signedIn(t);
    expect((await call(t.app, 'POST', '/api/buy/static', { token: other.token, body: { regionId, businessId, quantity: 1, days: 30, payMethod: 'sandbox' } })).body.code).toBe('OUT_OF_STOCK');

    await advance(t.config.STATIC_COOLDOWN_DAYS * DAY, other);
    await lifecycle();
    expect((await rowOf(ip!)).status).toBe('free');
    const sold = await call(t.app, 'POST', '/api/buy/static', { token: other.token, body: { regionId, businessId, quantity: 1, days: 30, payMethod: 'sandbox' } });
    await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${sold.body.data.order.orderNo}/pay`, ...form });
    const theirs = (await mine(other.token))[0]!;
    expect(theirs).toMatchObject({ ip, status: 'active' });
    expect(theirs.username).not.toBe(a!.username);
    expect((await history(row.id)).map(([e]) => e)).toEqual(['allocated', 'cooled', 'released', 'allocated', 'imported']);
  });

  it('a replacement moves the IP to another row, keeps login and expiry, and is limited per 30 days', async () => {
    const [first, second, third] = await stockUp(3);
    const customer = await signedIn(t);
    await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: customer.user.id, regionId, businessId, quantity: 1, days: 30, note: 'x' } });
    const [a] = await mine(customer.token);
    expect(a!.ip).toBe(first);
    const res = await call(t.app, 'POST', `/api/proxy/static/${a!.id}/replace`, { token: customer.token, body: { reason: 'blocked', note: 'blocked by the shop' } });
    expect(res.status).toBe(200);
    const login = await t.db.db.selectFrom('static_allocations').select('account_id').where('id', '=', a!.id).executeTakeFirstOrThrow();
    expect(events.at(-1)).toEqual({ userId: customer.user.id, accountId: login.account_id, closeLive: true });
    expect(res.body.data).toMatchObject({ id: a!.id, ip: second, username: a!.username, password: a!.password, expiresAt: a!.expiresAt, replacementsLeft: 0 });
    const old = await rowOf(first!);
    // The second IP is of the same region and line; the third is still free.
    expect(old.status).toBe('cooldown');
    expect((await history(old.id))[0]).toEqual(['replaced', 'blocked: blocked by the shop']);
    const again = await call(t.app, 'POST', `/api/proxy/static/${a!.id}/replace`, { token: customer.token, body: { reason: 'slow' }, lang: 'zh' });
    expect([again.status, again.body.code]).toEqual([409, 'STATIC_REPLACEMENTS_USED']);
    expect((await rowOf(third!)).status).toBe('free');
    // Thirty days later there is a replacement again.
    await advance(30 * DAY + 1000, customer);
    expect((await mine(customer.token))[0]!.replacementsLeft).toBe(1);
    const stranger = await signedIn(t);
    expect((await call(t.app, 'PUT', `/api/proxy/static/${a!.id}`, { token: stranger.token, body: { remark: 'mine now' } })).status).toBe(404);
    const noted = await call(t.app, 'PUT', `/api/proxy/static/${a!.id}`, { token: customer.token, body: { remark: '  shop checker ' } });
    expect(noted.body.data).toMatchObject({ id: a!.id, remark: 'shop checker' });
    expect((await call(t.app, 'PUT', `/api/proxy/static/${a!.id}`, { token: customer.token, body: { remark: '' } })).body.data.remark).toBeNull();
    expect((await call(t.app, 'PUT', `/api/proxy/static/${a!.id}`, { token: customer.token, body: { remark: 'x'.repeat(101) } })).status).toBe(400);
    expect((await call(t.app, 'POST', `/api/proxy/static/${a!.id}/replace`, { token: stranger.token, body: { reason: 'slow' } })).status).toBe(404);
    const bad = await call(t.app, 'POST', `/api/proxy/static/${a!.id}/replace`, { token: customer.token, body: { reason: 'bored' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('retiring a row releases the allocation on it at once', async () => {
    await stockUp(1);
    const customer = await signedIn(t);
    await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: customer.user.id, regionId, businessId, quantity: 1, days: 30, note: 'x' } });
    const { ip } = (await mine(customer.token))[0]!;
    const row = await rowOf(ip);
    await call(t.app, 'DELETE', `/api/manage/static-inventory/${row.id}`, { token: admin, body: { reason: 'provider pulled it' } });
    expect(events.at(-1)).toMatchObject({ userId: customer.user.id });
    const [a] = (await mine(customer.token)).filter((x) => x.ip === ip);
    expect(a!.status).toBe('released');
    expect((await history(row.id))[0]).toEqual(['retired', 'provider pulled it']);
    const replace = await call(t.app, 'POST', `/api/proxy/static/${a!.id}/replace`, { token: customer.token, body: { reason: 'not-working' } });
    expect(replace.body.code).toBe('STATIC_RELEASED');
  });

  it('running the lifecycle twice, or from two processes at once, changes nothing twice', async () => {
    await stockUp(1);
    const customer = await signedIn(t);
    await call(t.app, 'POST', '/api/manage/static-recharge', { token: admin, body: { userId: customer.user.id, regionId, businessId, quantity: 1, days: 1, note: 'x' } });
    const { ip } = (await mine(customer.token))[0]!;
    await advance(DAY + (t.config.STATIC_GRACE_DAYS + 1) * DAY);
    await Promise.all([lifecycle(), lifecycle(), lifecycle()]);
    await lifecycle();
    const row = await rowOf(ip);
    expect(row.status).toBe('cooldown');
    expect((await history(row.id)).filter(([e]) => e === 'released')).toHaveLength(1);
  });
});
