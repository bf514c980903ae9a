import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, uniqueIp } from '../../test/accounts';
import { call, sendCode } from '../../test/auth-flows';
import { text } from '../../test/i18n';
import { lastCodeFor, parseMail } from '../../test/smtp-sink';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

describe.each(DIALECTS)('mail without SMTP_URL on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await t.close();
  });

  const outbox = () => path.join(t.config.dataDir, 'outbox');
  const emlFiles = () => readdirSync(outbox()).filter((f) => f.endsWith('.eml'));

  it('writes one .eml per message into DATA_DIR/outbox, with the code, and never logs the code', async () => {
    expect(t.config.SMTP_URL).toBeUndefined();
    const before = new Set(emlFiles());
    const email = uniqueEmail('outbox');
    const res = await sendCode(t.app, email, 'register', uniqueIp());
    expect(res.status).toBe(200);

    const added = emlFiles().filter((f) => !before.has(f));
    expect(added).toHaveLength(1);
    const raw = readFileSync(path.join(outbox(), added[0]!), 'utf8');
    const mail = parseMail(raw);
    expect(mail.headers.to).toBe(email);
    const code = lastCodeFor([{ to: [email], raw }], email);
    expect(mail.text.trim()).toBe(text('en', 'mail.codeBody', { app: t.config.APP_NAME, code, purpose: text('en', 'mail.purpose.register') }));

    // The log says where the mail went, but not what it says.
    const logged = lines.join('\n');
    expect(logged).toContain('mail written to outbox');
    expect(logged).toContain(email);
    expect(logged).not.toMatch(new RegExp(`(?<![0-9])${code}(?![0-9])`));

    // And the code in the file is the one the server accepts.
    const reg = await call(t.app, 'POST', '/api/register', { body: { email, password: 'secret123', code, agree: true }, ip: uniqueIp() });
    expect(reg.status).toBe(200);
  });

  it('adds one file per message', async () => {
    const before = emlFiles().length;
    await sendCode(t.app, uniqueEmail('one'), 'register', uniqueIp());
    await sendCode(t.app, uniqueEmail('two'), 'register', uniqueIp());
    expect(emlFiles().length).toBe(before + 2);
  });
});
