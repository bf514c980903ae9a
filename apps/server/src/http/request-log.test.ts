import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, uniqueIp } from '../../test/accounts';
import { call, login } from '../../test/auth-flows';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

describe.each(DIALECTS)('request log lines on %s', (dialect) => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { log: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  });
  afterAll(() => t.close());

  it('writes one line per answered request, with the request and the answer in it', async () => {
    const email = uniqueEmail('reqlog');
    await createUser(t, { email, password: 'secret123' });
    const token = (await login(t.app, email, 'secret123', uniqueIp())).body.token as string;

    const before = lines.length;
    expect((await call(t.app, 'GET', '/api/user?page=1', { token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/manage/order', { token })).status).toBe(403);
    const written = lines.slice(before);
    expect(written.map((l) => l.msg)).toEqual(['request completed', 'request completed']);
    expect(written[0]).toMatchObject({ level: 30, req: { method: 'GET', url: '/api/user?page=1' }, res: { statusCode: 200 } });
    expect(written[1]).toMatchObject({ req: { method: 'GET', url: '/api/manage/order' }, res: { statusCode: 403 } });
    for (const line of written) {
      expect(typeof line.responseTime).toBe('number');
      expect(line.reqId).toBeDefined();
    }
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });

  it("writes no line for a route whose own level is above info (health checks: a probe's every few seconds)", async () => {
    const before = lines.length;
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(lines.slice(before)).toEqual([]);
    // The next ordinary request is logged again.
    expect((await call(t.app, 'GET', '/api/site')).status).toBe(200);
    expect(lines.slice(before).map((l) => l.msg)).toEqual(['request completed']);
  });
});
