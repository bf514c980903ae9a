import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../../../test/accounts';
import { call, login } from '../../../test/auth-flows';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';
import { ensureFirstAdmin } from './bootstrap-admin';
import { UserRepository } from './user-repository';

describe.each(DIALECTS)('first admin on %s', (dialect) => {
  let generated: TestApp;
  let configured: TestApp;
  beforeAll(async () => {
    [generated, configured] = await Promise.all([createTestApp(dialect), createTestApp(dialect)]);
  });
  afterAll(async () => {
    await Promise.all([generated.close(), configured.close()]);
  });

  const admins = (t: TestApp) => t.db.db.selectFrom('users').select(['email', 'account', 'role']).where('role', '=', 'admin').execute();
  const ensure = async (t: TestApp, creds: { email?: string; password?: string } = {}) => {
    const printed: string[] = [];
    await ensureFirstAdmin(new UserRepository(t.db.db), t.clock, { ...creds, print: (line) => printed.push(line) });
    return printed;
  };

  it('creates one admin with a generated password, printed once, that logs in', async () => {
    const printed = await ensure(generated);
    expect(printed).toHaveLength(1);
    const password = /with password (\S+)/.exec(printed[0]!)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(12);
    expect(await admins(generated)).toEqual([{ email: 'admin@localhost', account: 'admin', role: 'admin' }]);

    expect(await ensure(generated)).toEqual([]);
    expect(await admins(generated)).toHaveLength(1);

    const byName = await login(generated.app, 'admin', password!, uniqueIp());
    expect(byName.status).toBe(200);
    expect(byName.body.data.role).toBe('admin');
    expect((await call(generated.app, 'GET', '/api/manage/user', { token: byName.body.token })).status).toBe(200);
    expect((await login(generated.app, 'admin@localhost', password!, uniqueIp())).status).toBe(200);
    // The password is not stored in plain text.
    const row = await generated.db.db.selectFrom('users').select('password_hash').where('role', '=', 'admin').executeTakeFirstOrThrow();
    expect(row.password_hash).not.toContain(password!);
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when given, and does not print the password', async () => {
    const printed = await ensure(configured, { email: 'Boss@Example.com', password: 'chosen-pass-1' });
    expect(printed.join('\n')).not.toContain('chosen-pass-1');
    expect(printed.join('\n')).toContain('boss@example.com');
    expect(await admins(configured)).toEqual([{ email: 'boss@example.com', account: 'admin', role: 'admin' }]);
    expect(await ensure(configured, { email: 'other@example.com', password: 'other-pass-1' })).toEqual([]);
    expect(await admins(configured)).toHaveLength(1);
    const res = await login(configured.app, 'boss@example.com', 'chosen-pass-1', uniqueIp());
    expect(res.status).toBe(200);
    expect(res.body.data.role).toBe('admin');
  });
});
