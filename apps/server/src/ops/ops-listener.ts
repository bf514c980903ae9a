import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { type Readiness, readinessBody } from './readiness';

export interface OpsListenerOptions {
  host: string;
  /** 0 picks a free one (tests). */
  port: number;
  /** Serves `/healthz` and `/readyz` (HEALTH_PORT). */
  readiness?: Readiness;
  /** Serves `/metrics` (METRICS_PORT). */
  metrics?: Registry;
  log: { error(obj: object, msg: string): void };
}

export interface OpsListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A small HTTP listener for operators, apart from the API: health checks for a process that has no API
 * (`--role=gateway`), and the metrics, which must never share the API's public port. node:http, as
 * three fixed GET paths need no framework.
 */
export async function startOpsListener(o: OpsListenerOptions): Promise<OpsListener> {
  const paths = new Set([...(o.readiness ? ['/healthz', '/readyz'] : []), ...(o.metrics ? ['/metrics'] : [])]);
  const server = http.createServer((req, res) => {
    answer(o, paths, req, res).catch((err: unknown) => {
      o.log.error({ err }, 'ops listener: answering failed');
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });
  // Scrapers and probes keep connections alive between calls; an idle one must not hold a close() up.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(o: OpsListenerOptions, paths: Set<string>, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const route = (req.url ?? '/').split('?')[0]!;
  if (!paths.has(route)) return send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
  }
  if (route === '/healthz') return send(res, 200, JSON_TYPE, JSON.stringify({ status: 'ok' }));
  if (route === '/readyz') {
    const report = await o.readiness!.check();
    return send(res, report.ready ? 200 : 503, JSON_TYPE, JSON.stringify(readinessBody(report)));
  }
  send(res, 200, o.metrics!.contentType, await o.metrics!.metrics());
}

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
