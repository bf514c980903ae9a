import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn } from '../../test/commerce';
import { HOST, basic, closedPort, connectTunnel, exchange, readResponse, socksConnect, startByteOrigin } from '../../test/gateway-fixtures';
import { sampleOf } from '../../test/prometheus-text';
import { PROXY_PASSWORD, enableDirectEgress, gatewayCustomer, until, startTestGateway } from '../../test/store-gateway-kit';
import { DIALECTS, type TestApp, createTestApp } from '../../test/test-app';
import { silentLog } from '../gateway/gateway-log';
import { SOCKS_AUTH_FAILURE } from '../gateway/statuses';
import { type StoreGateway } from '../gateway/store/store-gateway';
import { createGatewayMeters } from './gateway-meters';
import { type Metrics, createMetrics } from './metrics';
import { type OpsListener, startOpsListener } from './ops-listener';

const KB = 1024;

/*
 * The metrics as main.ts wires them with METRICS_PORT: one registry for the API (request durations,
 * job runs) and the store-backed gateway (connections, bytes, refusals, flushes), scraped over HTTP from
 * the metrics listener after real traffic through the real gateway and API.
 */
describe.each(DIALECTS)('metrics on %s', (dialect) => {
  let t: TestApp;
  let metrics: Metrics;
  let g: StoreGateway;
  let scrape: OpsListener;
  let origin: Awaited<ReturnType<typeof startByteOrigin>>;
  let api: string;
  const sockets: net.Socket[] = [];

  const read = async () => {
    const res = await fetch(`http://${HOST}:${scrape.port}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    metrics = createMetrics();
    // The USDT watcher every second, so its runs show without waiting for the default 15 s.
    t = await createTestApp(dialect, { USDT_POLL_SECONDS: '1' }, { metrics });
    await t.app.listen({ port: 0, host: HOST });
    api = `http://${HOST}:${(t.app.server.address() as AddressInfo).port}`;
    const meters = createGatewayMeters(metrics.registry);
    g = await startTestGateway(t, {
      metrics: meters.metrics,
    });
    meters.watch(g.gateway);
    scrape = await startOpsListener({ host: HOST, port: 0, metrics: metrics.registry, log: silentLog });
    origin = await startByteOrigin();
    await enableDirectEgress(t, (await signedIn(t, 'admin')).token);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await scrape?.close();
    await g?.stop();
    await origin?.close();
    await t?.close();
  });

  it('counts a tunnel as an open connection and its bytes by direction, as the store bills them', async () => {
    const c = await gatewayCustomer(t, (await signedIn(t, 'admin')).token, [[64 * 1024 * KB, 30]]);
    await until(() => g.cache.authenticate(c.username, PROXY_PASSWORD).ok, 10_000, 'the gateway to know the account');
    const before = await read();
    expect(sampleOf(before, 'resi_gateway_connections_open')).toBe(0);
    const up0 = sampleOf(before, 'resi_gateway_bytes_total', { direction: 'up' })!;
    const down0 = sampleOf(before, 'resi_gateway_bytes_total', { direction: 'down' })!;

    const tunnel = await connectTunnel(g.gateway.httpPort, `${HOST}:${origin.port}`, basic(c.username, PROXY_PASSWORD));
    sockets.push(tunnel.socket);
    expect(tunnel.status).toBe(200);
    expect(sampleOf(await read(), 'resi_gateway_connections_open')).toBe(1);
    expect(await exchange(tunnel.socket, 64 * KB, 256 * KB)).toBe(256 * KB);
    await until(() => g.gateway.liveConnections() === 0, 10_000, 'the gateway to see the tunnel close');
    expect(await g.gateway.flush()).toBe(true);

    const after = await read();
    expect(sampleOf(after, 'resi_gateway_connections_open')).toBe(0);
    expect(sampleOf(after, 'resi_gateway_bytes_total', { direction: 'up' })! - up0).toBe(tunnel.socket.bytesWritten);
    expect(sampleOf(after, 'resi_gateway_bytes_total', { direction: 'down' })! - down0).toBe(tunnel.socket.bytesRead);
    expect(sampleOf(after, 'resi_gateway_flushes_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    // Just flushed: the lag is the time since then, well under one flush interval.
    expect(sampleOf(after, 'resi_gateway_flush_lag_seconds')).toBeLessThan(5);
    expect(sampleOf(after, 'resi_gateway_flush_duration_seconds_count')).toBeGreaterThanOrEqual(1);
  });

  it('counts refusals by listener and reason, once each', async () => {
    const c = await gatewayCustomer(t, (await signedIn(t, 'admin')).token, [[64 * 1024 * KB, 30]]);
    await until(() => g.cache.authenticate(c.username, PROXY_PASSWORD).ok, 10_000, 'the gateway to know the account');
    const before = await read();
    const count = (text: string, listener: string, reason: string) => sampleOf(text, 'resi_gateway_refusals_total', { listener, reason }) ?? 0;

    const wrong = await connectTunnel(g.gateway.httpPort, `${HOST}:${origin.port}`, basic(c.username, 'not-the-password'));
    sockets.push(wrong.socket);
    expect(wrong.status).toBe(407);
    const socks = await socksConnect(g.gateway.socksPort, c.username, 'not-the-password', HOST, origin.port);
    sockets.push(socks.socket);
    expect(socks.authStatus).toBe(SOCKS_AUTH_FAILURE);
    // A plain request whose origin refuses the connection: answered by the plain path's own failure mapping.
    const plain = net.connect(g.gateway.httpPort, HOST);
    sockets.push(plain);
    const target = `${HOST}:${await closedPort()}`;
    plain.write(`GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${basic(c.username, PROXY_PASSWORD)}\r\n\r\n`);
    const failed = await readResponse(plain);
    expect([failed.status, failed.headers['x-gateway-reason']]).toEqual([502, 'UPSTREAM_REFUSED']);

    // Not a request an HTTP proxy takes: a plain 400, counted as PROTOCOL.
    const ftp = net.connect(g.gateway.httpPort, HOST);
    sockets.push(ftp);
    ftp.write('GET ftp://files.example.com/ HTTP/1.1\r\nHost: files.example.com\r\n\r\n');
    expect((await readResponse(ftp)).status).toBe(400);

    const after = await read();
    expect(count(after, 'http', 'PROTOCOL') - count(before, 'http', 'PROTOCOL')).toBe(1);
    expect(count(after, 'http', 'BAD_CREDENTIALS') - count(before, 'http', 'BAD_CREDENTIALS')).toBe(1);
    expect(count(after, 'socks', 'BAD_CREDENTIALS') - count(before, 'socks', 'BAD_CREDENTIALS')).toBe(1);
    expect(count(after, 'http', 'UPSTREAM_REFUSED') - count(before, 'http', 'UPSTREAM_REFUSED')).toBe(1);
    expect(sampleOf(after, 'resi_gateway_accept_refusals_total', { listener: 'http', limit: 'budget' })).toBe(0);
    expect(sampleOf(after, 'resi_gateway_handshake_timeouts_total', { listener: 'socks' })).toBe(0);
  });

  it('reports descriptors in use and allowed', async () => {
    const text = await read();
    const open = sampleOf(text, 'process_open_fds')!;
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan(sampleOf(text, 'process_max_fds')!);
  });

  it('times API requests by route pattern, never by the URL', async () => {
    expect((await fetch(`${api}/api/site`)).status).toBe(200);
    expect((await fetch(`${api}/api/proxy/dynamic/918273645`, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(`${api}/no-such-page/tok_5eCr3tV4lue`)).status).toBe(404);
    const text = await read();
    expect(sampleOf(text, 'resi_http_request_duration_seconds_count', { method: 'GET', route: '/api/site', status_code: '200' })).toBe(1);
    expect(sampleOf(text, 'resi_http_request_duration_seconds_count', { method: 'DELETE', route: '/api/proxy/dynamic/:id', status_code: '401' })).toBe(1);
    expect(sampleOf(text, 'resi_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sampleOf(text, 'resi_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/site', status_code: '200', le: '+Inf' })).toBe(1);
    expect(text).not.toContain('918273645');
    expect(text).not.toContain('tok_5eCr3tV4lue');
  });

  it('counts job runs by job and outcome', async () => {
    const runs = await until(async () => sampleOf(await read(), 'resi_job_runs_total', { job: 'usdt_watcher', outcome: 'ok' }), 10_000, 'a USDT watcher run');
    expect(runs).toBeGreaterThanOrEqual(1);
    // A failing run passes its error on unchanged and is counted as failed.
    const boom = new Error('boom');
    await expect(metrics.jobs.track('probe', () => Promise.reject(boom))).rejects.toBe(boom);
    await expect(metrics.jobs.track('probe', async () => 42)).resolves.toBe(42);
    const text = await read();
    expect(sampleOf(text, 'resi_job_runs_total', { job: 'probe', outcome: 'failed' })).toBe(1);
    expect(sampleOf(text, 'resi_job_runs_total', { job: 'probe', outcome: 'ok' })).toBe(1);
    expect(sampleOf(text, 'resi_job_duration_seconds_count', { job: 'probe' })).toBe(2);
  });
});
