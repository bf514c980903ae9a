import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { DAY } from '../../lib/clock';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
let n = 0;
const uname = () => `usage_${process.pid % 1000}_${++n}`;
const qs = (query: Record<string, string | number>) => new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));

describe.each(DIALECTS)('Usage Record on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  /** Alice's accounts a1 < a2 < a3 (a3 deleted after its traffic), Bob's b1. */
  const ids = { a1: 0, a2: 0, a3: 0, b1: 0 };
  const names = { a1: '', a2: '', a3: '', b1: '' };
  /** UTC date `offset` days from the test clock's today. */
  let day: (offset: number) => string;

  const get = (query: Record<string, string | number>, token = alice, lang?: string) =>
    call(t.app, 'GET', `/api/record/usage?${qs(query)}`, { token, lang });
  /** The rows as `[bucket, account, country, up, down]`, easy to read in a failure. */
  const rows = (body: { data?: { items: { bucket: string; accountId: number; country: string | null; bytesUp: number; bytesDown: number }[] } }) =>
    body.data!.items.map((r) => [r.bucket, Object.entries(ids).find(([, id]) => id === r.accountId)?.[0] ?? r.accountId, r.country, r.bytesUp, r.bytesDown]);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const today = Math.floor(t.clock.now().getTime() / DAY) * DAY;
    day = (offset) => new Date(today + offset * DAY).toISOString().slice(0, 10);

    const a = await signedIn(t);
    const b = await signedIn(t);
    alice = a.token;
    bob = b.token;
    const account = async (token: string, key: keyof typeof ids) => {
      names[key] = uname();
      const res = await call(t.app, 'POST', '/api/proxy/dynamic', { token, body: { username: names[key], password: 'Secret123' } });
      expect(res.status).toBe(200);
      ids[key] = res.body.data.id as number;
    };
    await account(alice, 'a1');
    await account(alice, 'a2');
    await account(alice, 'a3');
    await account(bob, 'b1');

    // What the gateway writes: one row per account, hour and country ('' = no country asked for).
    const use = (key: keyof typeof ids, offset: number, hour: number, country: string, up: number, down: number) => ({
      account_id: ids[key],
      user_id: key === 'b1' ? b.user.id : a.user.id,
      hour: `${day(offset)}T${String(hour).padStart(2, '0')}:00:00.000Z`,
      country,
      bytes_up: up,
      bytes_down: down,
    });
    await t.db.db
      .insertInto('usage_hourly')
      .values([
        use('a1', 0, 1, 'US', 100, 1000),
        use('a1', 0, 2, 'US', 10, 20),
        use('a1', 0, 1, '', 5, 6),
        use('a2', 0, 3, 'DE', 200, 300),
        use('a2', 0, 0, 'US', 50, 60),
        use('a1', -1, 23, 'US', 1, 2),
        use('a2', -1, 0, 'US', 3, 4),
        use('a3', -6, 12, 'GB', 7, 8),
        use('a1', -7, 12, 'US', 1000, 1000),
        use('a1', -100, 5, 'US', 4444, 4444),
        use('b1', 0, 1, 'US', 999, 999),
      ])
      .execute();
    expect((await call(t.app, 'DELETE', `/api/proxy/dynamic/${ids.a3}`, { token: alice })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('groups the last 7 days by day, account and country, newest first, with totals of every row', async () => {
    const res = await get({});
    expect(res.status).toBe(200);
    expect(rows(res.body)).toEqual([
      [day(0), 'a1', null, 5, 6],
      [day(0), 'a1', 'US', 110, 1020],
      [day(0), 'a2', 'DE', 200, 300],
      [day(0), 'a2', 'US', 50, 60],
      [day(-1), 'a1', 'US', 1, 2],
      [day(-1), 'a2', 'US', 3, 4],
      [day(-6), 'a3', 'GB', 7, 8],
    ]);
    expect(res.body.data).toMatchObject({ total: 7, page: 1, pageSize: 20, totals: { bytesUp: 376, bytesDown: 1400 } });
    expect(res.body.data.items[0]).toEqual({ bucket: day(0), accountId: ids.a1, username: names.a1, accountDeleted: false, staticIp: null, country: null, bytesUp: 5, bytesDown: 6 });
  });

  it('keeps a deleted account’s usage, under its name and marked deleted', async () => {
    const res = await get({ accountId: ids.a3 });
    expect(res.body.data.items).toEqual([{ bucket: day(-6), accountId: ids.a3, username: names.a3, accountDeleted: true, staticIp: null, country: 'GB', bytesUp: 7, bytesDown: 8 }]);
    expect(res.body.data.totals).toEqual({ bytesUp: 7, bytesDown: 8 });
  });

  it('pages the groups while the totals still cover all of them', async () => {
    const second = await get({ page: 2, pageSize: 3 });
    expect(rows(second.body)).toEqual([
      [day(0), 'a2', 'US', 50, 60],
      [day(-1), 'a1', 'US', 1, 2],
      [day(-1), 'a2', 'US', 3, 4],
    ]);
    expect(second.body.data).toMatchObject({ total: 7, page: 2, pageSize: 3, totals: { bytesUp: 376, bytesDown: 1400 } });
    const last = await get({ page: 3, pageSize: 3 });
    expect(rows(last.body)).toEqual([[day(-6), 'a3', 'GB', 7, 8]]);
    expect((await get({ page: 4, pageSize: 3 })).body.data).toMatchObject({ items: [], total: 7 });
  });

  it('groups by hour: each stored hour is a bucket', async () => {
    const res = await get({ granularity: 'hour', from: day(0), to: day(0) });
    const hour = (h: string) => `${day(0)}T${h}:00:00.000Z`;
    expect(rows(res.body)).toEqual([
      [hour('03'), 'a2', 'DE', 200, 300],
      [hour('02'), 'a1', 'US', 10, 20],
      [hour('01'), 'a1', null, 5, 6],
      [hour('01'), 'a1', 'US', 100, 1000],
      [hour('00'), 'a2', 'US', 50, 60],
    ]);
    expect(res.body.data.totals).toEqual({ bytesUp: 365, bytesDown: 1386 });
  });

  it('counts `to` whole: from its first hour to its last', async () => {
    const yesterday = await get({ granularity: 'hour', from: day(-1), to: day(-1) });
    expect(rows(yesterday.body)).toEqual([
      [`${day(-1)}T23:00:00.000Z`, 'a1', 'US', 1, 2],
      [`${day(-1)}T00:00:00.000Z`, 'a2', 'US', 3, 4],
    ]);
    expect(rows((await get({ from: day(-7), to: day(-6) })).body)).toEqual([
      [day(-6), 'a3', 'GB', 7, 8],
      [day(-7), 'a1', 'US', 1000, 1000],
    ]);
    expect((await get({ from: day(-5), to: day(-2) })).body.data).toMatchObject({ items: [], total: 0, totals: { bytesUp: 0, bytesDown: 0 } });
    // Only `to`: the 7 days ending then.
    expect(rows((await get({ to: day(-7) })).body)).toEqual([[day(-7), 'a1', 'US', 1000, 1000]]);
    expect((await get({ to: day(-1) })).body.data.total).toBe(4);
    // A window of exactly 90 days, the maximum, reaches back to the oldest row.
    expect((await get({ from: day(-100), to: day(-11) })).body.data.totals).toEqual({ bytesUp: 4444, bytesDown: 4444 });
  });

  it('filters by one of ones own accounts and by country, in any case', async () => {
    expect(rows((await get({ accountId: ids.a2 })).body)).toEqual([
      [day(0), 'a2', 'DE', 200, 300],
      [day(0), 'a2', 'US', 50, 60],
      [day(-1), 'a2', 'US', 3, 4],
    ]);
    const us = await get({ country: 'us' });
    expect(rows(us.body)).toEqual([
      [day(0), 'a1', 'US', 110, 1020],
      [day(0), 'a2', 'US', 50, 60],
      [day(-1), 'a1', 'US', 1, 2],
      [day(-1), 'a2', 'US', 3, 4],
    ]);
    expect(us.body.data.totals).toEqual({ bytesUp: 164, bytesDown: 1086 });
    expect(rows((await get({ accountId: ids.a1, country: 'US', granularity: 'hour' })).body)).toEqual([
      [`${day(0)}T02:00:00.000Z`, 'a1', 'US', 10, 20],
      [`${day(0)}T01:00:00.000Z`, 'a1', 'US', 100, 1000],
      [`${day(-1)}T23:00:00.000Z`, 'a1', 'US', 1, 2],
    ]);
  });

  it("never shows another user's usage, not even by naming their account", async () => {
    const own = await get({}, bob);
    expect(own.body.data.items).toEqual([{ bucket: day(0), accountId: ids.b1, username: names.b1, accountDeleted: false, staticIp: null, country: 'US', bytesUp: 999, bytesDown: 999 }]);
    const theirs = await get({ accountId: ids.b1 });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totals: { bytesUp: 0, bytesDown: 0 } });
    expect((await get({ accountId: ids.a1 }, bob)).body.data.total).toBe(0);
    const file = await t.app.inject({ method: 'GET', url: `/api/record/usage/export?accountId=${ids.b1}`, headers: { authorization: `Bearer ${alice}` } });
    expect(parse(file.rawPayload, { bom: true })).toHaveLength(1);
  });

  it('refuses a caller without a session with 401', async () => {
    for (const url of ['/api/record/usage', '/api/record/usage/export']) {
      const res = await call(t.app, 'GET', url);
      expect(res.status, url).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses bad windows and filters with a 400 in the caller’s language', async () => {
    const refused = async (query: Record<string, string | number>, message: string) => {
      for (const url of ['/api/record/usage', '/api/record/usage/export']) {
        const res = await call(t.app, 'GET', `${url}?${qs(query)}`, { token: alice, lang: 'zh-cn' });
        expect(res.status, `${url} ${JSON.stringify(query)}`).toBe(400);
        expect(res.body).toEqual({ code: 'VALIDATION_FAILED', message });
      }
    };
    await refused({ from: day(-1), to: day(-2) }, '请求无效：结束日期不能早于开始日期。');
    await refused({ from: day(-90), to: day(0) }, '请求无效：查询时间段最长为 90 天。');
    // Only `from`: up to today, so a start 90 days back is one day too many.
    await refused({ from: day(-90) }, '请求无效：查询时间段最长为 90 天。');
    await refused({ from: '2026-13-01' }, '请求无效：日期格式为 YYYY-MM-DD。');
    await refused({ to: 'yesterday' }, '请求无效：日期格式为 YYYY-MM-DD。');
    await refused({ country: 'USA' }, '请求无效：请使用两位国家代码，例如 US。');
    await refused({ granularity: 'week' }, '请求无效：granularity：不是允许的值');
    await refused({ accountId: 'abc' }, expect.stringMatching(/^请求无效：accountId/) as unknown as string);
    expect((await get({ pageSize: 101 }, alice, 'zh')).status).toBe(400);
    expect((await get({ from: day(-89) })).status).toBe(200);
  });

  it('downloads the same rows as a CSV with a BOM, headers in the caller’s language', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/record/usage/export?page=2&pageSize=1', headers: { authorization: `Bearer ${alice}`, 'api-lang': 'zh-cn' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="usage-${day(-6)}-${day(0)}.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 3).equals(BOM)).toBe(true);
    // Paging does not apply to a download: every row of the window.
    expect(parse(res.rawPayload, { bom: true })).toEqual([
      ['时间 (UTC)', '代理账号', '静态IP', '国家/地区', '上传 (字节)', '下载 (字节)', '合计 (字节)'],
      [day(0), names.a1, '', '', '5', '6', '11'],
      [day(0), names.a1, '', 'US', '110', '1020', '1130'],
      [day(0), names.a2, '', 'DE', '200', '300', '500'],
      [day(0), names.a2, '', 'US', '50', '60', '110'],
      [day(-1), names.a1, '', 'US', '1', '2', '3'],
      [day(-1), names.a2, '', 'US', '3', '4', '7'],
      [day(-6), names.a3, '', 'GB', '7', '8', '15'],
    ]);

    const en = await t.app.inject({ method: 'GET', url: `/api/record/usage/export?granularity=hour&country=de&from=${day(0)}&to=${day(0)}`, headers: { authorization: `Bearer ${alice}` } });
    expect(en.headers['content-disposition']).toBe(`attachment; filename="usage-${day(0)}-${day(0)}.csv"`);
    expect(parse(en.rawPayload, { bom: true })).toEqual([
      ['Time (UTC)', 'Proxy account', 'Static IP', 'Country', 'Upload (bytes)', 'Download (bytes)', 'Total (bytes)'],
      [`${day(0)}T03:00:00.000Z`, names.a2, '', 'DE', '200', '300', '500'],
    ]);
  });

  it('takes no session token from the query string', async () => {
    const res = await call(t.app, 'GET', `/api/record/usage/export?token=${alice}`);
    expect(res.status).toBe(401);
  });
});
