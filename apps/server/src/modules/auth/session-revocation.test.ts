import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../../test/accounts';
import { call, login, sendCode } from '../../../test/auth-flows';
import { lastCodeFor, startSmtpSink } from '../../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { SessionRepository } from './session-repository';

/**
 * Two API processes on one store (docs/api.md#sign-in-and-roles): whatever one of them or anything else
 * writes to the store about a session or its user holds on the next request in both, although signed-in
 * requests may be answered from memory (modules/auth/session-cache.ts).
 */
describe.each(DIALECTS)('revoking sessions across two API processes on %s', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    a = await createTestApp(dialect, { SMTP_URL: sink.url });
    b = await createTestApp(dialect, { SMTP_URL: sink.url }, { sameStoreAs: a });
    // Background jobs write to the store on their own ticks: stopped, the only writes are the tests'.
    await Promise.all([a.app.jobs.stop(), b.app.jobs.stop()]);
    await Promise.all([a.app.listen({ port: 0, host: '127.0.0.1' }), b.app.listen({ port: 0, host: '127.0.0.1' })]);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await sink.close();
  });
  afterEach(() => vi.restoreAllMocks());

  // Signed-in reads go over a real socket, as another process's clients' would: a store version is looked
  // for once per turn of the event loop (db/database.ts), and each request read from a socket starts one.
  async function overHttp(t: TestApp, url: string, token: string) {
    const origin = t.app.listeningOrigin;
    const res = await fetch(`${origin}${url}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { data?: any } };
  }
  const me = (t: TestApp, token: string) => overHttp(t, '/api/user', token);
  const orders = (t: TestApp, token: string) => overHttp(t, '/api/manage/order?page=1&pageSize=20', token);

  async function signIn(t: TestApp, email: string, password: string): Promise<string> {
    const res = await login(t.app, email, password, uniqueIp());
    expect(res.status).toBe(200);
    return res.body.token as string;
  }

  /** A token both processes have just accepted twice: if either remembers it, it does now. */
  async function warmed(token: string): Promise<void> {
    for (const t of [a, b, a, b]) expect((await me(t, token)).status).toBe(200);
  }

  it('a logout in one process is refused by both at once', async () => {
    const email = uniqueEmail('rev-logout');
    await createUser(a, { email, password: 'secret123' });
    const token = await signIn(a, email, 'secret123');
    const other = await signIn(b, email, 'secret123');
    await warmed(token);
    await warmed(other);

    expect((await call(a.app, 'POST', '/api/logout', { token })).status).toBe(200);
    expect((await me(a, token)).status).toBe(401);
    expect((await me(b, token)).status).toBe(401);
    // The same user's other session is untouched.
    expect((await me(a, other)).status).toBe(200);
    expect((await me(b, other)).status).toBe(200);

    expect((await call(b.app, 'POST', '/api/logout', { token: other })).status).toBe(200);
    expect((await me(b, other)).status).toBe(401);
    expect((await me(a, other)).status).toBe(401);
  });

  it('a password change in one process signs the other sessions out in both', async () => {
    const email = uniqueEmail('rev-change');
    await createUser(a, { email, password: 'secret123' });
    const kept = await signIn(b, email, 'secret123');
    const ended = await signIn(a, email, 'secret123');
    await warmed(kept);
    await warmed(ended);

    expect((await sendCode(b.app, email, 'change-pass', uniqueIp())).status).toBe(200);
    const code = lastCodeFor(sink.messages, email);
    const res = await call(b.app, 'POST', '/api/user/change-pass', { token: kept, body: { oldPassword: 'secret123', newPassword: 'newpass456', code } });
    expect(res.status).toBe(200);
    expect((await me(a, ended)).status).toBe(401);
    expect((await me(b, ended)).status).toBe(401);
    expect((await me(a, kept)).status).toBe(200);
  });

  it('a user disabled or demoted in the store by someone else holds on the next request', async () => {
    const email = uniqueEmail('rev-admin');
    const user = await createUser(a, { email, password: 'secret123', role: 'admin' });
    const token = await signIn(a, email, 'secret123');
    await warmed(token);
    for (const t of [a, b]) expect((await orders(t, token)).status).toBe(200);

    // As another process (or an operator at the database) would: through a store handle of its own.
    await b.db.db.updateTable('users').set({ role: 'customer' }).where('id', '=', user.id).execute();
    for (const t of [a, b]) {
      expect((await orders(t, token)).status).toBe(403);
      expect((await me(t, token)).body.data.role).toBe('customer');
    }

    await a.db.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    for (const t of [a, b]) expect((await me(t, token)).status).toBe(401);
  });

  it('a session deleted from the store by someone else is refused at once', async () => {
    const email = uniqueEmail('rev-delete');
    const user = await createUser(a, { email, password: 'secret123' });
    const token = await signIn(a, email, 'secret123');
    await warmed(token);
    await b.db.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    for (const t of [a, b]) expect((await me(t, token)).status).toBe(401);
  });

  it(`asks the store again only when it may have changed (${dialect === 'sqlite' ? 'SQLite tells' : 'PostgreSQL is asked every time'})`, async () => {
    const email = uniqueEmail('rev-cached');
    await createUser(a, { email, password: 'secret123' });
    const token = await signIn(a, email, 'secret123');
    expect((await me(a, token)).status).toBe(200);
    const lookups = vi.spyOn(SessionRepository.prototype, 'findWithUser');
    for (let i = 0; i < 5; i++) expect((await me(a, token)).status).toBe(200);
    expect(lookups).toHaveBeenCalledTimes(dialect === 'sqlite' ? 0 : 5);
    // A change by the other process, to anything, is seen on the next request.
    await b.db.db.updateTable('users').set({ lang: 'zh-cn' }).where('email', '=', email).execute();
    expect((await me(a, token)).body.data.lang).toBe('zh-cn');
    expect(lookups).toHaveBeenCalledTimes(dialect === 'sqlite' ? 1 : 6);
  });
});
