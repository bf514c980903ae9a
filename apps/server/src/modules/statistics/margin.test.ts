import { GIB } from '@resi/contract';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

const FROM = '2026-03-30';
const TO = '2026-04-02';
const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };

interface Figures {
  bytes: number;
  revenue: number;
  cost: number;
}
/**
 * A row as the API answers it: margin follows from revenue and cost (docs/business-rules.md#margin); the per-GB
 * figures come from the sums before rounding, checked on their own below.
 */
const perGb = (bytes: number) => (bytes === 0 ? null : expect.any(Number));
const full = ({ bytes, revenue, cost }: Figures) => ({
  bytes,
  revenue,
  cost,
  margin: revenue - cost,
  revenuePerGb: perGb(bytes),
  costPerGb: perGb(bytes),
  marginPerGb: perGb(bytes),
});
const rotating = (period: string, region: string | null, provider: [number, string] | null, f: Figures) => ({
  period,
  kind: 'rotating',
  region,
  providerId: provider?.[0] ?? null,
  providerName: provider?.[1] ?? null,
  ...full(f),
});
const fixed = (period: string, region: string, revenue: number, cost: number) => ({ period, kind: 'static', region, providerId: null, providerName: null, ...full({ bytes: 0, revenue, cost }) });

describe.each(DIALECTS)('Margin in statistics on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let alpha: [number, string];
  let beta: [number, string];
  let gamma: [number, string];

  const stats = (groupBy: 'day' | 'month') => call(t.app, 'GET', `/api/manage/statistics?from=${FROM}&to=${TO}&groupBy=${groupBy}`, { token: admin });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    const db = t.db.db;
    const now = t.clock.now().toISOString();

    // Providers and their costs per GB (minor units, USD: the shop currency of the test app).
    const provider = async (name: string, deleted = false): Promise<[number, string]> => {
      const row = await db
        .insertInto('providers')
        .values({ name, template: '', regions: '', priority: 1, weight: 100, monthly_quota_gb: null, status: 'enabled', deleted_at: deleted ? now : null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return [row.id, name];
    };
    alpha = await provider('Alpha');
    beta = await provider('Beta', true);
    gamma = await provider('Gamma');
    const cost = (p: [number, string], amount: number, from_day: string, currency = 'USD') => ({ provider_id: p[0], amount, currency, from_day, created_at: now });
    await db
      .insertInto('provider_costs')
      .values([
        cost(alpha, 100, '2026-01-01'),
        // From a day inside the window: only from that day on.
        cost(alpha, 200, '2026-04-01'),
        // Another currency never counts; a cost from after the window changes nothing in it.
        cost(alpha, 999, '2026-03-31', 'EUR'),
        cost(alpha, 1000, '2026-04-03'),
        // The deleted provider costs nothing before its first cost row.
        cost(beta, 50, '2026-03-31'),
      ])
      .execute();
    // Revenue given in thousandths of a minor unit, stored in millionths.
    const use = (day: string, p: [number, string] | null, country: string, bytes: number, thousandths: number) => ({ day, provider_id: p?.[0] ?? 0, country, bytes, revenue_micro: thousandths * 1000 });
    await db
      .insertInto('provider_usage_daily')
      .values([
        use('2026-03-29', alpha, 'US', GIB, 1_000_000),
        use('2026-03-30', alpha, 'US', 2 * GIB, 1_234_567),
        use('2026-03-31', alpha, 'US', GIB, 500_000),
        use('2026-04-01', alpha, 'US', 3 * GIB, 2_000_400),
        use('2026-04-01', alpha, '', GIB / 2, 100_000),
        use('2026-03-30', beta, 'DE', GIB, 333_333),
        use('2026-03-31', beta, 'DE', 1_000_000_000, 333_333),
        use('2026-04-02', null, 'GB', GIB, 700_000),
        use('2026-04-02', gamma, 'US', 5 * GIB, 4_000_000),
        use('2026-04-03', alpha, 'US', GIB, 9),
      ])
      .execute();

    // Static IPs, imported with their monthly cost through the admin API.
    const regions = (await call(t.app, 'GET', '/api/static-region')).body.data.items as { id: number; country: string }[];
    const region = (country: string) => regions.find((r) => r.country === country)!.id;
    const businessId = (await call(t.app, 'GET', '/api/business')).body.data.items[0].id as number;
    const importIps = async (country: string, ips: string[], costPerMonth?: number) => {
      const res = await call(t.app, 'POST', '/api/manage/static-inventory', {
        token: admin,
        body: { regionId: region(country), lines: ips.map((ip) => `${ip}:3128:up:pw`).join('\n'), ...(costPerMonth === undefined ? {} : { costPerMonth }) },
      });
      expect(res.body.data.created).toBe(ips.length);
    };
    await importIps('US', ['198.51.100.1', '198.51.100.2'], 3100);
    await importIps('US', ['198.51.100.5'], 9999);
    await importIps('JP', ['198.51.100.3'], 6200);
    await importIps('SG', ['198.51.100.4']);
    const listed = (await call(t.app, 'GET', '/api/manage/static-inventory?pageSize=100', { token: admin })).body.data.items as { id: number; ip: string; costPerMonth: number; currency: string }[];
    const ipId = (ip: string) => listed.find((r) => r.ip === ip)!.id;
    expect(listed.find((r) => r.ip === '198.51.100.4')).toMatchObject({ costPerMonth: 0, currency: 'USD' });
    expect(listed.find((r) => r.ip === '198.51.100.3')).toMatchObject({ costPerMonth: 6200 });
    const created = async (ip: string, at: string) => db.updateTable('static_inventory').set({ created_at: at }).where('exit_ip', '=', ip).execute();
    await created('198.51.100.1', '2026-03-15T09:00:00.000Z');
    await created('198.51.100.2', '2026-04-02T10:00:00.000Z');
    await created('198.51.100.5', '2026-04-03T00:00:00.000Z');
    await created('198.51.100.3', '2026-01-01T00:00:00.000Z');
    // The JP IP is retired on 03-31: it costs up to that day.
    expect((await call(t.app, 'DELETE', `/api/manage/static-inventory/${ipId('198.51.100.3')}`, { token: admin, body: { reason: 'dropped' } })).status).toBe(200);
    await db.updateTable('static_inventory_events').set({ at: '2026-03-31T12:00:00.000Z' }).where('inventory_id', '=', ipId('198.51.100.3')).where('event', '=', 'retired').execute();

    // A static purchase (US) and its renewal, paid through the sandbox, dated inside the window; an unpaid one counts nothing.
    const { token } = await signedIn(t);
    const paidOn = async (orderNo: string, at: string) => {
      expect((await t.app.inject({ method: 'POST', url: `/api/pay/sandbox/${orderNo}/pay`, ...form })).statusCode).toBe(200);
      await db.updateTable('orders').set({ paid_at: at }).where('order_no', '=', orderNo).execute();
    };
    const bought = await call(t.app, 'POST', '/api/buy/static', { token, body: { regionId: region('US'), businessId, quantity: 1, days: 30, payMethod: 'sandbox' } });
    expect(bought.body.data.order.amount).toBe(500);
    await paidOn(bought.body.data.order.orderNo, '2026-03-31T08:00:00.000Z');
    const ip = (await call(t.app, 'GET', '/api/proxy/static', { token })).body.data.items[0].id as number;
    const renewal = await call(t.app, 'POST', '/api/buy/static-renew', { token, body: { staticProxyIds: [ip], days: 30, payMethod: 'sandbox' } });
    await paidOn(renewal.body.data.order.orderNo, '2026-04-02T09:00:00.000Z');
    const unpaid = await call(t.app, 'POST', '/api/buy/static', { token, body: { regionId: region('SG'), businessId, quantity: 1, days: 30, payMethod: 'sandbox' } });
    await db.updateTable('orders').set({ created_at: '2026-04-01T00:00:00.000Z' }).where('order_no', '=', unpaid.body.data.order.orderNo).execute();
  });
  afterAll(() => t.close());

  it('answers per day: revenue, cost in force on each day, static IPs by the day held and static orders by paid day', async () => {
    const res = await stats('day');
    expect(res.status).toBe(200);
    const { rows, totals } = res.body.data.margin;
    expect(rows).toEqual([
      // Beta had no cost before 03-31; deleted, it keeps its name.
      rotating('2026-03-30', 'DE', beta, { bytes: GIB, revenue: 333, cost: 0 }),
      rotating('2026-03-30', 'US', alpha, { bytes: 2 * GIB, revenue: 1235, cost: 200 }),
      fixed('2026-03-30', 'JP', 0, 200),
      fixed('2026-03-30', 'US', 0, 100),
      // 50 × 10⁹ / 2³⁰ = 46.57; Alpha's EUR cost of that day does not count.
      rotating('2026-03-31', 'DE', beta, { bytes: 1_000_000_000, revenue: 333, cost: 47 }),
      rotating('2026-03-31', 'US', alpha, { bytes: GIB, revenue: 500, cost: 100 }),
      fixed('2026-03-31', 'JP', 0, 200),
      fixed('2026-03-31', 'US', 500, 100),
      // Alpha's new cost from 04-01; no country asked for is null.
      rotating('2026-04-01', null, alpha, { bytes: GIB / 2, revenue: 100, cost: 100 }),
      rotating('2026-04-01', 'US', alpha, { bytes: 3 * GIB, revenue: 2000, cost: 600 }),
      // 3100 ÷ 30 a day in April.
      fixed('2026-04-01', 'US', 0, 103),
      // No provider (direct egress), and a provider without costs.
      rotating('2026-04-02', 'GB', null, { bytes: GIB, revenue: 700, cost: 0 }),
      rotating('2026-04-02', 'US', gamma, { bytes: 5 * GIB, revenue: 4000, cost: 0 }),
      // Two US IPs that day: 2 × 3100 ÷ 30 = 206.67.
      fixed('2026-04-02', 'US', 500, 207),
    ]);
    // Per GB from the unrounded sums: the cost in force itself, whatever the bytes; revenue from its millionths.
    expect(rows[1]).toMatchObject({ revenuePerGb: 617.2835, costPerGb: 100, marginPerGb: 517.2835 });
    expect(rows.find((r: { period: string; region: string }) => r.period === '2026-03-31' && r.region === 'DE')).toMatchObject({ costPerGb: 50, revenuePerGb: 357.913583419392 });
    const bytes = 13.5 * GIB + 1_000_000_000;
    const rotatingRevenue = 333 + 1235 + 333 + 500 + 100 + 2000 + 700 + 4000;
    const rotatingCost = 200 + 47 + 100 + 100 + 600;
    expect(totals).toEqual({
      bytes,
      revenue: rotatingRevenue + 1000,
      cost: rotatingCost + 200 + 200 + 100 + 100 + 103 + 207,
      margin: rotatingRevenue + 1000 - (rotatingCost + 910),
      // Per GB of the traffic: of the rotating rows only.
      revenuePerGb: expect.any(Number),
      costPerGb: expect.any(Number),
      marginPerGb: expect.any(Number),
    });
    // The unrounded costs: 2 GiB at 100, 10⁹ B at 50, 1 GiB at 100, ½ + 3 GiB at 200.
    expect(totals.costPerGb).toBeCloseTo(((200 + (50 * 1e9) / GIB + 100 + 700) * GIB) / bytes, 9);
    expect(totals).toMatchObject({ revenue: 10201, cost: 1957, margin: 8244 });
  });

  it('answers per month, rounding the sums of the month rather than each day', async () => {
    const res = await stats('month');
    expect(res.status).toBe(200);
    const { rows, totals } = res.body.data.margin;
    expect(rows).toEqual([
      // (333 333 + 333 333) / 1000 = 666.67: 667, where the days' rounded figures add up to 666.
      rotating('2026-03', 'DE', beta, { bytes: GIB + 1_000_000_000, revenue: 667, cost: 47 }),
      rotating('2026-03', 'US', alpha, { bytes: 3 * GIB, revenue: 1735, cost: 300 }),
      fixed('2026-03', 'JP', 0, 400),
      fixed('2026-03', 'US', 500, 200),
      rotating('2026-04', null, alpha, { bytes: GIB / 2, revenue: 100, cost: 100 }),
      rotating('2026-04', 'GB', null, { bytes: GIB, revenue: 700, cost: 0 }),
      rotating('2026-04', 'US', alpha, { bytes: 3 * GIB, revenue: 2000, cost: 600 }),
      rotating('2026-04', 'US', gamma, { bytes: 5 * GIB, revenue: 4000, cost: 0 }),
      // Three IP-days at 3100 ÷ 30.
      fixed('2026-04', 'US', 500, 310),
    ]);
    expect(totals).toMatchObject({ bytes: 13.5 * GIB + 1_000_000_000, revenue: 10202, cost: 1957, margin: 8245 });
  });

  it('sums days past 2⁵³ (bytes × cost per GB) exactly enough to round to the minor unit', async () => {
    // About 3 PiB in one day at Alpha's cost from 04-03 (1000 a GB).
    await t.db.db
      .insertInto('provider_usage_daily')
      .values({ day: '2026-05-15', provider_id: alpha[0], country: 'US', bytes: 3 * 2 ** 50 + 7, revenue_micro: 2 ** 53 + 1 })
      .execute();
    const res = await call(t.app, 'GET', '/api/manage/statistics?from=2026-05-15&to=2026-05-15&groupBy=day', { token: admin });
    expect(res.body.data.margin.rows.filter((r: { kind: string }) => r.kind === 'rotating')).toEqual([
      rotating('2026-05-15', 'US', alpha, { bytes: 3 * 2 ** 50 + 7, revenue: 9_007_199_255, cost: 3 * 2 ** 20 * 1000 }),
    ]);
  });

  it('exports the margin as a second table of the statistics CSV, amounts as decimals, headers in the chosen language', async () => {
    const ticket = (await call(t.app, 'POST', '/api/export-ticket', { token: admin, body: {} })).body.data.ticket as string;
    const res = await t.app.inject({ method: 'GET', url: `/api/manage/statistics?from=${FROM}&to=${TO}&groupBy=month&lang=zh&token=${ticket}` });
    expect(res.statusCode).toBe(200);
    const [periods, margin] = res.body.replace(/^\uFEFF/, '').split('\r\n\r\n');
    expect(parse(periods!, { columns: true })).toHaveLength(3);
    const table = parse(margin!, { columns: true }) as Record<string, string>[];
    expect(Object.keys(table[0]!)).toEqual([
      '期間 (UTC)',
      '類型',
      '類型（代碼）',
      '地區',
      '供應商 ID',
      '供應商',
      '流量 (位元組)',
      '收入',
      '成本',
      '毛利',
      '每 GB 收入',
      '每 GB 成本',
      '每 GB 毛利',
      '幣別',
    ]);
    expect(table.map((r) => Object.values(r))).toEqual([
      ['2026-03', '動態流量', 'rotating', 'DE', String(beta[0]), 'Beta', String(GIB + 1_000_000_000), '6.67', '0.47', '6.20', expect.any(String), expect.any(String), expect.any(String), 'USD'],
      ['2026-03', '動態流量', 'rotating', 'US', String(alpha[0]), 'Alpha', String(3 * GIB), '17.35', '3.00', '14.35', '5.78', '1.00', '4.78', 'USD'],
      // A negative amount is written as a number, so the formula escaping leaves it a number.
      ['2026-03', '靜態 IP', 'static', 'JP', '', '', '0', '0.00', '4.00', '-4', '', '', '', 'USD'],
      ['2026-03', '靜態 IP', 'static', 'US', '', '', '0', '5.00', '2.00', '3.00', '', '', '', 'USD'],
      ['2026-04', '動態流量', 'rotating', '', String(alpha[0]), 'Alpha', String(GIB / 2), '1.00', '1.00', '0.00', '2.00', '2.00', '0.00', 'USD'],
      ['2026-04', '動態流量', 'rotating', 'GB', '', '', String(GIB), '7.00', '0.00', '7.00', '7.00', '0.00', '7.00', 'USD'],
      ['2026-04', '動態流量', 'rotating', 'US', String(alpha[0]), 'Alpha', String(3 * GIB), '20.00', '6.00', '14.00', '6.67', '2.00', '4.67', 'USD'],
      ['2026-04', '動態流量', 'rotating', 'US', String(gamma[0]), 'Gamma', String(5 * GIB), '40.00', '0.00', '40.00', '8.00', '0.00', '8.00', 'USD'],
      ['2026-04', '靜態 IP', 'static', 'US', '', '', '0', '5.00', '3.10', '1.90', '', '', '', 'USD'],
      ['合計', '', '', '', '', '', String(13.5 * GIB + 1_000_000_000), '102.02', '19.57', '82.45', expect.any(String), expect.any(String), expect.any(String), 'USD'],
    ]);
    // The audit row counts both tables' rows (2 periods and a total, 9 margin rows and a total).
    const audit = await t.db.db.selectFrom('audit_logs').select('after').where('action', '=', 'export.statistics').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!).rows).toBe(13);
  });
});
