import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ZodType } from 'zod';
import { uniqueIp } from '../../test/accounts';
import { seedCatalogue, signedIn } from '../../test/commerce';
import { recordFigure } from '../../test/security-figures';
import { methodsOf, seenRoutes } from '../../test/route-spy';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

/*
 * Malformed input on every operation that reads a body, a query or path parameters: wrong types, huge
 * strings, odd Unicode, prototype-pollution keys, deep arrays, broken JSON and foreign media types.
 * Whatever arrives, the answer is below 500 and a refusal is the exact { code, message } of docs/api.md#errors; what the
 * route's own schema refuses must be refused. fast-check is not among the project's packages, so the
 * cases are generated here, deterministically: a failure names the case, and a rerun sends the same.
 * Routes are seen as in access-policy.test.ts: an onRoute hook on every Fastify instance.
 */
vi.mock('fastify', (original) => import('../../test/route-spy').then((m) => m.withRouteSpy(original)));

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Case {
  label: string;
  url: string;
  payload?: string;
  contentType?: string;
  /** The input is wrong whatever the route: a 4xx is required, not only "no 5xx". */
  mustRefuse: boolean;
}

const deep = (depth: number): unknown => (depth === 0 ? [] : [deep(depth - 1)]);
const ODD_TEXT = '\u0000\u202e\ud800 𝕏 ﷽ 😀 \u0007 <script>';
/** Values no field should be surprised by; each is put into every field of a body in turn. */
const BODY_VALUES: Array<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['beyond safe integers', 2 ** 53 + 2],
  ['empty string', ''],
  ['100 kB string', 'x'.repeat(100_000)],
  ['odd Unicode', ODD_TEXT],
  ['numeric string', '1'],
  ['array', ['a']],
  ['500-deep array', deep(500)],
  ['object', { a: 1 }],
];
/** Whole bodies that no route takes. */
const RAW_BODIES: Array<[string, string, string]> = [
  ['broken JSON', 'application/json', '{"a":'],
  ['bare JSON string', 'application/json', '"text"'],
  ['JSON array', 'application/json', '[1,2]'],
  ['JSON null', 'application/json', 'null'],
  ['__proto__ key', 'application/json', '{"__proto__":{"role":"admin"}}'],
  ['constructor.prototype key', 'application/json', '{"constructor":{"prototype":{"role":"admin"}}}'],
  ['number too large for a double', 'application/json', '{"a":1e999}'],
  ['plain text', 'text/plain', 'hello'],
  ['XML', 'application/xml', '<a/>'],
  ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'],
];
/** Query values, put into every query field in turn. */
const QUERY_VALUES: Array<[string, string]> = [
  ['word', 'x'],
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['exponent', '1e999'],
  ['hex', '0x10'],
  ['empty', ''],
  ['8 kB string', 'x'.repeat(8_000)],
  ['odd Unicode', encodeURIComponent(ODD_TEXT.replace('\ud800', ''))],
  ['lone surrogate as UTF-8', '%ED%A0%80'],
  ['broken percent-encoding', '%E0%A4%A'],
  ['NUL byte', '%00'],
];
/** Query shapes that only a parser with nesting would turn into objects. */
const QUERY_SHAPES: Array<[string, (key: string) => string]> = [
  ['repeated key', (k) => `${k}=1&${k}=2`],
  ['bracket key', (k) => `${k}[]=1`],
  ['nested key', (k) => `${k}[a][b]=1`],
  ['__proto__ key', () => '__proto__[role]=admin'],
  ['constructor.prototype key', () => 'constructor[prototype][role]=admin'],
];
const PARAM_VALUES = ['abc', '-1', '0', '1.5', '99999999999999999999999', '%00', '%E2%80%AE', 'x'.repeat(500), '__proto__', 'constructor'];

/** A zod object inside optional/nullable wrappers, or null. */
function objectSchema(s: unknown): { shape: Record<string, unknown>; schema: ZodType } | null {
  let inner = s as { shape?: Record<string, unknown>; unwrap?: () => unknown } | undefined;
  while (inner && !inner.shape && typeof inner.unwrap === 'function') inner = inner.unwrap() as typeof inner;
  return inner?.shape ? { shape: inner.shape, schema: s as ZodType } : null;
}

/** Every malformed request for one operation. */
function casesFor(r: RouteOptions, method: Method): Case[] {
  const schema = (r.schema ?? {}) as Record<string, unknown>;
  const url = r.url.replace(/:\w+/g, '1');
  const cases: Case[] = [];
  for (const param of [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
    for (const value of PARAM_VALUES) cases.push({ label: `param ${param}=${value.slice(0, 20)}`, url: r.url.replace(`:${param}`, value).replace(/:\w+/g, '1'), mustRefuse: false });
  }
  const query = objectSchema(schema.querystring);
  for (const key of Object.keys(query?.shape ?? {})) {
    for (const [label, value] of QUERY_VALUES) cases.push({ label: `query ${key}: ${label}`, url: `${url}?${key}=${value}`, mustRefuse: false });
  }
  if (query) for (const [label, shape] of QUERY_SHAPES) cases.push({ label: `query: ${label}`, url: `${url}?${shape(Object.keys(query.shape)[0] ?? 'a')}`, mustRefuse: false });
  if (method !== 'GET') {
    const body = objectSchema(schema.body);
    for (const [label, contentType, payload] of RAW_BODIES) {
      // A route whose body may be absent takes JSON null; any other whole body is wrong everywhere.
      const mustRefuse = !(body && label === 'JSON null' && body.schema.safeParse(null).success);
      cases.push({ label: `body: ${label}`, url, payload, contentType, mustRefuse });
    }
    for (const key of Object.keys(body?.shape ?? {})) {
      for (const [label, value] of BODY_VALUES) {
        const json = { [key]: value };
        // What the route's own schema refuses, the route must refuse; what it takes may still fail a rule.
        cases.push({ label: `body ${key}: ${label}`, url, payload: JSON.stringify(json), contentType: 'application/json', mustRefuse: !body!.schema.safeParse(json).success });
      }
    }
  }
  return cases;
}

/** Figures of both stores, recorded together once the second has run. */
const figures: string[] = [];

describe.each(DIALECTS)('malformed requests on %s', (dialect) => {
  let t: TestApp;
  let routes: RouteOptions[];
  beforeAll(async () => {
    seenRoutes.length = 0;
    t = await createTestApp(dialect);
    routes = seenRoutes.filter((r) => methodsOf(r).length > 0 && r.url.startsWith('/api/'));
    await seedCatalogue(t);
  });
  afterAll(() => t.close());

  it('never answer 5xx, and refuse in the error envelope', async () => {
    // An admin passes every access policy, so the input is what gets judged.
    let admin = await signedIn(t, 'admin');
    const operations = routes.flatMap((r) => methodsOf(r).map((method) => ({ r, method, cases: casesFor(r, method) }))).filter((op) => op.cases.length > 0);
    expect(operations.map((op) => `${op.method} ${op.r.url}`)).toEqual(expect.arrayContaining(['POST /api/login', 'GET /api/manage/user', 'PUT /api/proxy/dynamic/:id', 'POST /api/pay/notify/:provider']));

    const failures: string[] = [];
    const perOperation: number[] = [];
    let serverErrors = 0;
    let requests = 0;
    for (const { r, method, cases } of operations) {
      for (const c of cases) {
        // A logout that accepts its (empty) body ends the session: the next case gets a new one.
        if (r.url.endsWith('/logout')) admin = await signedIn(t, 'admin');
        const res = await t.app.inject({
          method,
          url: c.url,
          remoteAddress: uniqueIp(),
          headers: { authorization: `Bearer ${admin.token}`, ...(c.contentType ? { 'content-type': c.contentType } : {}) },
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        requests += 1;
        const name = `${method} ${r.url} (${c.label}) → ${res.statusCode}`;
        if (res.statusCode >= 500) serverErrors += 1;
        if (res.statusCode >= 500 || (c.mustRefuse && res.statusCode < 400)) failures.push(name);
        else if (res.statusCode >= 400) {
          const body = String(res.headers['content-type']).includes('json') ? (res.json() as Record<string, unknown>) : null;
          if (!body || Object.keys(body).sort().join() !== 'code,message' || typeof body.code !== 'string' || typeof body.message !== 'string') failures.push(`${name}: not { code, message }`);
          // A route's own credential refused (an extraction key) is its answer; the session must stand.
          else if (body.code === 'UNAUTHENTICATED') failures.push(`${name}: the admin's session was lost`);
        }
      }
      perOperation.push(cases.length);
    }
    expect(failures).toEqual([]);
    expect(serverErrors).toBe(0);

    perOperation.sort((a, b) => a - b);
    figures.push(
      `${dialect}: ${requests} malformed requests over ${operations.length} operations (${perOperation[0]}–${perOperation.at(-1)} each, median ${perOperation[Math.floor(perOperation.length / 2)]}), ` +
        `${serverErrors} answered 5xx; every refusal in the { code, message } envelope`,
    );
    recordFigure({
      id: 'malformed-requests',
      threat: 'Anonymous or signed-in clients sending malformed input to crash the API or pollute objects',
      test: 'apps/server/src/http/malformed-requests.test.ts › malformed requests',
      figure: figures.join('; '),
    });
    // About 2,800 requests per store: seconds alone, but these machines are shared by several test runs.
  }, 240_000);
});
