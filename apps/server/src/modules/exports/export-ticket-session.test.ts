import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login, sendCode } from '../../../test/auth-flows';
import { text } from '../../../test/i18n';
import { lastCodeFor, startSmtpSink } from '../../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

/** An export ticket dies with the session that asked for it (docs/decisions.md, Exports). */
describe.each(DIALECTS)('export tickets and their session on %s', (dialect) => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp(dialect, { SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const PASSWORD = 'secret123';
  async function admin() {
    const email = uniqueEmail('ticket-admin');
    const user = await createUser(t, { email, password: PASSWORD, role: 'admin' });
    return { email, user, session: () => login(t.app, email, PASSWORD, uniqueIp()).then((r) => r.body.token as string) };
  }
  const ticketOf = async (session: string) => (await call(t.app, 'POST', '/api/export-ticket', { token: session, body: {} })).body.data.ticket as string;
  const download = (ticket: string) => t.app.inject({ method: 'GET', url: '/api/manage/order', query: { token: ticket, lang: 'zh' } });
  const refused = { code: 'EXPORT_TICKET_INVALID', message: text('zh', 'errors.EXPORT_TICKET_INVALID') };
  const mailedCode = async (email: string, purpose: string) => {
    expect((await sendCode(t.app, email, purpose, uniqueIp())).status).toBe(200);
    return lastCodeFor(sink.messages, email);
  };

  it('logout: the tickets of that session stop working, those of another session do not', async () => {
    const a = await admin();
    const [one, two] = [await a.session(), await a.session()];
    const [ticketOne, ticketTwo] = [await ticketOf(one), await ticketOf(two)];
    expect((await call(t.app, 'POST', '/api/logout', { token: one, body: {} })).status).toBe(200);
    const res = await download(ticketOne);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(refused);
    expect((await download(ticketTwo)).statusCode).toBe(200);
  });

  it('password change: the tickets of the sessions it signs out stop working', async () => {
    const a = await admin();
    const [other, changer] = [await a.session(), await a.session()];
    const [otherTicket, changerTicket] = [await ticketOf(other), await ticketOf(changer)];
    const code = await mailedCode(a.email, 'change-pass');
    expect((await call(t.app, 'POST', '/api/user/change-pass', { token: changer, body: { oldPassword: PASSWORD, newPassword: 'newpass456', code } })).status).toBe(200);
    expect((await download(otherTicket)).json()).toEqual(refused);
    // The session that changed the password lives on, and so does its ticket.
    expect((await download(changerTicket)).statusCode).toBe(200);
  });

  it('password reset and disabling the account: every ticket of the user stops working', async () => {
    const a = await admin();
    const ticket = await ticketOf(await a.session());
    const code = await mailedCode(a.email, 'reset');
    expect((await call(t.app, 'POST', '/api/reset-pass', { body: { email: a.email, code, newPassword: 'newpass456' } })).status).toBe(200);
    expect((await download(ticket)).json()).toEqual(refused);

    const b = await admin();
    const bTicket = await ticketOf(await b.session());
    await t.db.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', b.user.id).execute();
    expect((await download(bTicket)).json()).toEqual(refused);
  });

  it('a ticket whose session has expired is refused', async () => {
    const a = await admin();
    const session = await a.session();
    const ticket = await ticketOf(session);
    await t.db.db.updateTable('sessions').set({ expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() }).where('user_id', '=', a.user.id).execute();
    expect((await download(ticket)).json()).toEqual(refused);
  });
});
