import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/auth-flows';
import { seedCatalogue, signedIn } from '../../test/commerce';
import { type CatalogueLang, text } from '../../test/i18n';
import { recordFigure } from '../../test/security-figures';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

/** What `Number()` reads as an id and an id is not (the probe deleted rows 16, 1 and 1000 with them). */
const BAD_IDS = ['0x10', ' 1', '+1', '1e3'] as const;
const LANGS: CatalogueLang[] = ['en', 'zh-cn', 'zh'];

interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}
interface Operation {
  parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface IdInput {
  method: string;
  path: string;
  where: 'path' | 'query' | 'body';
  field: string;
}

const isNumeric = (s: JsonSchema | undefined): boolean =>
  s !== undefined && (s.type === 'integer' || s.type === 'number' || (s.anyOf ?? []).some(isNumeric));
const isIdName = (name: string) => name === 'id' || /[a-z]Id$/.test(name);

/** Every numeric id a route takes, read from the OpenAPI document the route schemas generate. */
function idInputs(doc: { paths: Record<string, Record<string, Operation>> }): IdInput[] {
  const out: IdInput[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const p of op.parameters ?? []) {
        if ((p.in === 'path' || p.in === 'query') && isIdName(p.name) && isNumeric(p.schema)) out.push({ method, path, where: p.in, field: p.name });
      }
      const props = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      for (const [name, schema] of Object.entries(props)) if (isIdName(name) && isNumeric(schema)) out.push({ method, path, where: 'body', field: name });
    }
  }
  return out;
}

describe.each(DIALECTS)('numeric ids are strict decimal integers on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await seedCatalogue(t);
    admin = (await signedIn(t, 'admin')).token;
    // Rows 1 (and more) of every table an id route changes: a bad id read as 1 would hit them.
    expect((await call(t.app, 'POST', '/api/proxy/dynamic', { token: admin, body: { username: `ids_${process.pid}`, password: 'Passw0rd1' } })).status).toBe(200);
    const provider = { name: 'Up', upstreams: [{ url: 'http://up.example.test:8000' }], costPerGb: { amount: 0, currency: t.config.CURRENCY, from: '2026-01-01' } };
    expect((await call(t.app, 'POST', '/api/manage/providers', { token: admin, body: provider })).status).toBe(200);
  });
  afterAll(() => t.close());

  /** Every row of every table, to show that refused requests changed nothing. */
  async function snapshot(): Promise<Record<string, string[]>> {
    const tables = (await t.db.db.introspection.getTables()).map((tb) => tb.name).filter((n) => !n.startsWith('kysely_'));
    const out: Record<string, string[]> = {};
    for (const name of tables.sort()) {
      const rows = await t.db.db.selectFrom(name as never).selectAll().execute();
      out[name] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  }

  it('every route answers 0x10, " 1", "+1" and 1e3 in place of an id with a localized 400 and changes nothing', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    const inputs = idInputs(doc);
    const found = inputs.map((i) => `${i.method.toUpperCase()} ${i.path} ${i.where}:${i.field}`);
    // The document is the table; this list only makes sure it was read (routes added later join by themselves).
    expect(found).toEqual(
      expect.arrayContaining([
        'DELETE /api/manage/goods/{id} path:id',
        'PUT /api/manage/goods/{id} path:id',
        'DELETE /api/manage/region/{id} path:id',
        'DELETE /api/manage/static-region/{id} path:id',
        'DELETE /api/manage/business/{id} path:id',
        'DELETE /api/manage/static-price/{id} path:id',
        'POST /api/manage/static-price body:regionId',
        'POST /api/manage/static-price body:businessId',
        'PUT /api/proxy/dynamic/{id} path:id',
        'DELETE /api/proxy/dynamic/{id} path:id',
        'PUT /api/manage/providers/{id} path:id',
        'DELETE /api/manage/providers/{id} path:id',
        'GET /api/manage/order query:userId',
        'GET /api/traffic query:accountId',
        'GET /api/record/usage query:accountId',
        'GET /api/proxy/dynamic/export query:accountId',
        'POST /api/buy/dynamic body:goodsId',
        'POST /api/logs/intention-purchase body:goodsId',
        'POST /api/manage/recharge body:userId',
        'POST /api/manage/payment-review/resolve body:id',
      ]),
    );

    const before = await snapshot();
    const wrong: string[] = [];
    let answered = 0;
    for (const input of inputs) {
      for (const [n, bad] of BAD_IDS.entries()) {
        const lang = LANGS[n % LANGS.length]!;
        const value = input.where === 'path' ? encodeURIComponent(bad) : '1';
        let url = input.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === input.field && input.where === 'path' ? value : '1'));
        if (input.where === 'query') url += `?${input.field}=${encodeURIComponent(bad)}`;
        const method = input.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE';
        const body = method === 'GET' ? undefined : input.where === 'body' ? { [input.field]: bad } : {};
        const res = await call(t.app, method, url, { token: admin, body, lang });
        answered += 1;
        const said = text(lang, 'validation.field', { field: input.field, message: text(lang, 'validation.issue.invalid') });
        if (res.status !== 400 || res.body.code !== 'VALIDATION_FAILED' || !res.body.message?.includes(said)) {
          wrong.push(`${method} ${url} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    const after = await snapshot();
    expect(after).toEqual(before);

    // And plain decimal ids still work, in a path and in a query.
    expect((await call(t.app, 'GET', '/api/manage/order?userId=1', { token: admin })).status).toBe(200);
    const goods = await call(t.app, 'PUT', '/api/manage/goods/1', {
      token: admin,
      body: { name: { en: 'One', 'zh-cn': '一', zh: '一' }, bytes: 1024 ** 3, price: 100, validityDays: 30 },
    });
    expect(goods.status).toBe(200);

    if (dialect === 'sqlite') {
      const routes = new Set(inputs.map((i) => `${i.method} ${i.path}`)).size;
      recordFigure({
        id: 'api-strict-ids',
        threat: 'ids such as 0x10, " 1", "+1" or 1e3 read as other rows\' ids (the probe deleted 7 objects with them)',
        test: 'apps/server/src/http/strict-ids.test.ts',
        figure: `${inputs.length} id inputs (path, query and body) on ${routes} routes, read from the OpenAPI document, each sent the 4 inputs: ${answered} requests, ${answered - wrong.length} answered 400 VALIDATION_FAILED naming the field, 0 rows changed in any table`,
      });
    }
  });
});
