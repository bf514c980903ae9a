import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/auth-flows';
import { DIALECTS, type TestApp, createTestApp } from '../../../test/test-app';

describe.each(DIALECTS)('GET /api/site on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      KNOWLEDGE_BASE_URL: 'https://help.example.com/kb',
      FAQ_URL: 'https://help.example.com/faq',
      TOOLBOX_URL: 'http://tools.example.com/',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells anyone, signed in or not, where the operator\'s own Learn and Toolbox pages are; null where none is set', async () => {
    const res = await call(t.app, 'GET', '/api/site');
    expect(res.status).toBe(200);
    expect(res.body.data.links).toEqual({
      knowledgeBase: 'https://help.example.com/kb',
      faq: 'https://help.example.com/faq',
      blog: null,
      toolbox: 'http://tools.example.com/',
    });
  });
});
