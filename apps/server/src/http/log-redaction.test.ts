import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../test/accounts';
import { call, login, sendCode } from '../../test/auth-flows';
import { seedCatalogue } from '../../test/commerce';
import { text } from '../../test/i18n';
import { recordFigure } from '../../test/security-figures';
import { lastCodeFor } from '../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('replaces the values of secret query parameters and keeps the rest', () => {
    expect(redactUrl('/api/manage/order?email=a%40b.c&token=abc&lang=en')).toBe('/api/manage/order?email=a%40b.c&token=[redacted]&lang=en');
    expect(redactUrl('/x?Access_Token=1&YTO-TGC=2&ticket=3&code=4&page=1&sessionToken=5&api%5Fkey=6')).toBe(
      '/x?Access_Token=[redacted]&YTO-TGC=[redacted]&ticket=[redacted]&code=[redacted]&page=1&sessionToken=[redacted]&api%5Fkey=[redacted]',
    );
    expect(redactUrl('/api/user')).toBe('/api/user');
    expect(redactUrl('/x?token')).toBe('/x?token');
  });
});

describe.each(DIALECTS)('no secret in a log line on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    // The app's real pino logger at trace level, writing every line to this array.
    t = await createTestApp(dialect, {}, { log: (line) => lines.push(line) });
    await seedCatalogue(t);
  });
  afterAll(() => t.close());

  it('tokens, export tickets, mail codes, mail bodies and passwords never reach the log', async () => {
    const password = 'Log-Secret-9x';
    const adminEmail = uniqueEmail('log-admin');
    await createUser(t, { email: adminEmail, password, role: 'admin' });
    const session = (await login(t.app, adminEmail, password, uniqueIp())).body.token as string;
    const ticket = (await call(t.app, 'POST', '/api/export-ticket', { token: session, body: {} })).body.data.ticket as string;
    const secrets: Record<string, string> = { session, ticket, password };

    // A ticket in the URL, used and then replayed; a session token where a ticket belongs and elsewhere.
    expect((await t.app.inject({ method: 'GET', url: `/api/manage/order?lang=en&token=${ticket}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/manage/order?token=${encodeURIComponent(ticket)}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/manage/user?token=${session}&YTO-TGC=${session}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/user?access_token=${session}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/no-such-route?ticket=${ticket}&code=123456` })).statusCode).toBe(404);

    // Mail codes go to DATA_DIR/outbox without SMTP_URL; the log says where, never what.
    const email = uniqueEmail('log-mail');
    expect((await sendCode(t.app, email, 'register', uniqueIp())).status).toBe(200);
    const outbox = path.join(t.config.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((f) => ({ to: [readFileSync(path.join(outbox, f), 'utf8').match(/^To: (.+)$/m)?.[1] ?? ''], raw: readFileSync(path.join(outbox, f), 'utf8') }));
    const code = lastCodeFor(mails, email);
    const reg = await call(t.app, 'POST', '/api/register', { body: { email, password, code, agree: true }, ip: uniqueIp() });
    expect(reg.status).toBe(200);
    secrets.registeredSession = reg.body.token as string;
    expect((await sendCode(t.app, adminEmail, 'reset', uniqueIp())).status).toBe(200);
    const resetCode = lastCodeFor(readdirSync(outbox).map((f) => ({ to: [adminEmail], raw: readFileSync(path.join(outbox, f), 'utf8') })).filter((m) => m.raw.includes(adminEmail)), adminEmail);
    expect((await call(t.app, 'POST', '/api/reset-pass', { body: { email: adminEmail, code: resetCode, newPassword: 'Other-Secret-8y' } })).status).toBe(200);
    const mailBody = text('en', 'mail.codeBody', { app: t.config.APP_NAME, code, purpose: text('en', 'mail.purpose.register') });

    const log = lines.join('\n');
    // The requests above were logged (with their URLs), so the absence below means something.
    expect(log).toContain('/api/manage/order?lang=en&token=[redacted]');
    expect(log).toContain('/api/no-such-route?ticket=[redacted]&code=[redacted]');
    expect(log).toContain('mail written to outbox');
    const found = Object.entries(secrets).filter(([, s]) => log.includes(s) || log.includes(encodeURIComponent(s)));
    expect(found).toEqual([]);
    for (const c of [code, resetCode]) expect(log).not.toMatch(new RegExp(`(?<![0-9])${c}(?![0-9])`));
    expect(log).not.toContain(mailBody.slice(0, 40));
    expect(log).not.toContain('Other-Secret-8y');

    if (dialect === 'sqlite') {
      recordFigure({
        id: 'log-redaction',
        threat: 'session tokens, export tickets, mail codes or mail bodies in log lines',
        test: 'apps/server/src/http/log-redaction.test.ts',
        figure: `${lines.length} log lines of the real logger (trace level) after exports by ticket, replayed tickets, session tokens in ?token, ?access_token and ?YTO-TGC, registration and password reset through outbox mail: 0 lines hold a token, ticket, password, mail code or mail body; the URLs are logged with [redacted] values`,
      });
    }
  });
});
