import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST, basic, connectTunnel } from '../../test/gateway-fixtures';
import { sampleOf } from '../../test/prometheus-text';
import { type GatewayProcess, freePorts, spawnGateway, until } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';

const get = async (port: number, path: string) => {
  const res = await fetch(`http://${HOST}:${port}${path}`);
  const text = await res.text();
  return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : null };
};

/*
 * A `--role=gateway` process (main.ts, from source) has no API: HEALTH_PORT gives it /healthz and /readyz,
 * METRICS_PORT its metrics. Against the store of a test app, on both stores.
 */
describe.each(DIALECTS)('a gateway-only process on %s', (dialect) => {
  let t: TestApp;
  const procs: GatewayProcess[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) {
      p.child.kill('SIGTERM');
      expect((await p.exited).code, p.output()).toBe(0);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Resolves once the process has printed `line` (its listeners start after the gateway's). */
  const printed = (p: GatewayProcess, line: string) => until(() => p.output().includes(line), 20_000, `the gateway process to print "${line}"`);

  it('answers /healthz and /readyz on HEALTH_PORT, and serves its gateway metrics on METRICS_PORT only', async () => {
    const [http, socks, health, metrics] = (await freePorts(4)) as [number, number, number, number];
    const p = spawnGateway(t, { http, socks }, { env: { HEALTH_PORT: String(health), METRICS_PORT: String(metrics), METRICS_HOST: HOST } });
    procs.push(p);
    await p.ready;
    await printed(p, `metrics on ${HOST}:${metrics}/metrics`);

    expect(await get(health, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await get(health, '/readyz')).toMatchObject({ status: 200, body: { status: 'ready', checks: { store: { ok: true }, migrations: { ok: true } } } });
    expect((await get(health, '/metrics')).status).toBe(404);

    const refused = await connectTunnel(http, `${HOST}:9`, basic('nobody-here', 'wrong'));
    refused.socket.destroy();
    expect(refused.status).toBe(407);
    const scrape = await get(metrics, '/metrics');
    expect(scrape.status).toBe(200);
    expect(sampleOf(scrape.text, 'resi_gateway_refusals_total', { listener: 'http', reason: 'BAD_CREDENTIALS' })).toBe(1);
    expect(sampleOf(scrape.text, 'resi_gateway_connections_open')).toBe(0);
    expect(sampleOf(scrape.text, 'process_open_fds')).toBeGreaterThan(0);
    // No API in this process: no request was timed.
    expect(scrape.text).not.toMatch(/^resi_http_request_duration_seconds_count/m);
  });

  it('runs no metrics listener unless METRICS_PORT is set', async () => {
    const [http, socks, health] = (await freePorts(3)) as [number, number, number];
    const p = spawnGateway(t, { http, socks }, { env: { HEALTH_PORT: String(health) } });
    procs.push(p);
    await p.ready;
    await printed(p, `health checks on port ${health}`);
    expect((await get(health, '/readyz')).status).toBe(200);
    expect((await get(health, '/metrics')).status).toBe(404);
    expect(p.output()).not.toContain('metrics on');
  });
});
