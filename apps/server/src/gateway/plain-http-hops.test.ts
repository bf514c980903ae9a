import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAuthority, HOST, basic, startGateway } from '../../test/gateway-fixtures';
import { UpstreamExitChooser } from './upstream-exit-chooser';

/** What a plain HTTP request through the gateway shows the origin, and what the client gets back. */
function get(proxyPort: number, target: string, headers: http.OutgoingHttpHeaders): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: HOST, port: proxyPort, path: target, agent: false, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('plain HTTP: the client-to-proxy hop stays with the proxy', () => {
  const authority = new FakeAuthority();
  authority.add('hopacct');
  let origin: http.Server;
  let target: string;
  let g: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    // Answers the header names it received, lower-cased, in order.
    origin = http.createServer((req, res) => res.end(JSON.stringify(req.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()))));
    await new Promise<void>((r) => origin.listen(0, HOST, r));
    target = `http://${HOST}:${(origin.address() as AddressInfo).port}/`;
    g = await startGateway({ chooser: new UpstreamExitChooser({ direct: true }) }, authority);
  });
  afterAll(async () => {
    await g.gw.stop();
    await new Promise((r) => origin.close(r));
  });

  it('forwards neither Proxy-Connection nor the fields Connection names; the rest arrives', async () => {
    const res = await get(g.gw.httpPort, target, {
      'proxy-authorization': basic('hopacct', 'pw'),
      'proxy-connection': 'Keep-Alive',
      connection: 'keep-alive, X-Hop-Secret',
      'x-hop-secret': 'only-for-the-proxy',
      'x-end-to-end': 'kept',
    });
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body) as string[];
    expect(seen).toContain('x-end-to-end');
    expect(seen).not.toContain('proxy-connection');
    expect(seen).not.toContain('x-hop-secret');
    expect(seen).not.toContain('proxy-authorization');
  });

  it.each([
    ['a Bearer scheme', 'Bearer abc'],
    ['a Digest scheme', 'Digest username="hopacct"'],
    ['spaces only', '   '],
    ['the Basic scheme without credentials', 'Basic'],
  ])('answers %s in Proxy-Authorization with 407 and Proxy-Authenticate, as CONNECT does', async (_what, value) => {
    const res = await get(g.gw.httpPort, target, { 'proxy-authorization': value });
    expect([res.status, res.headers['x-gateway-reason'], res.headers['proxy-authenticate']]).toEqual([407, 'BAD_CREDENTIALS', 'Basic realm="resi-gateway"']);
  });
});
