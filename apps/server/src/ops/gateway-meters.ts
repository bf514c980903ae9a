import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Gateway } from '../gateway/gateway';
import type { GatewayMetrics, RefusalReason } from '../gateway/gateway-metrics';

type Listener = 'http' | 'socks';
const LISTENERS: Listener[] = ['http', 'socks'];

export interface GatewayMeters {
  /** Handed to the gateway (GatewayOptions.metrics). */
  readonly metrics: GatewayMetrics;
  /** Reads the started gateway's own figures (connections open, accept-time refusals) at each scrape. */
  watch(gateway: Gateway): void;
}

/**
 * The gateway's metrics (docs/deployment.md, "Metrics"). What the gateway reports on its hot paths (bytes
 * at every harvest, refusals) is added to plain numbers and handed to prom-client at each scrape, so a
 * busy gateway pays an addition per event, not a label lookup. Registered only in processes that run a
 * gateway: an API process has no flush lag to report.
 */
export function createGatewayMeters(registry: Registry): GatewayMeters {
  let bytesUp = 0;
  let bytesDown = 0;
  const refusals: Record<Listener, Map<RefusalReason, number>> = { http: new Map(), socks: new Map() };
  /** When everything metered was last in the store: the gateway's start until a flush succeeds. */
  let durableAt = Date.now();
  let gateway: Gateway | null = null;

  new Counter({
    name: 'resi_gateway_bytes_total',
    help: 'Bytes metered to proxy accounts, by direction: up from the client, down to it (what the store bills).',
    labelNames: ['direction'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ direction: 'up' }, bytesUp);
      this.inc({ direction: 'down' }, bytesDown);
    },
  });
  new Counter({
    name: 'resi_gateway_refusals_total',
    help: 'Proxy requests refused or failed, by listener and reason (X-Gateway-Reason; PROTOCOL: not a request the protocol allows).',
    labelNames: ['listener', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const listener of LISTENERS) for (const [reason, n] of refusals[listener]) this.inc({ listener, reason }, n);
    },
  });
  new Counter({
    name: 'resi_gateway_accept_refusals_total',
    help: 'Connections closed at accept without a word, by listener and limit (budget: GATEWAY_MAX_CONNECTIONS; pending_per_ip: GATEWAY_MAX_PENDING_PER_IP; pending_per_net: GATEWAY_MAX_PENDING_PER_NET).',
    labelNames: ['listener', 'limit'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (!gateway) return;
      for (const listener of LISTENERS) {
        const { refused } = gateway.protection[listener];
        this.inc({ listener, limit: 'budget' }, refused.budget);
        this.inc({ listener, limit: 'pending_per_ip' }, refused.pendingPerIp);
        this.inc({ listener, limit: 'pending_per_net' }, refused.pendingPerNet);
      }
    },
  });
  new Counter({
    name: 'resi_gateway_pending_evictions_total',
    help: 'Unauthenticated connections closed to make room for a newer one when their share (GATEWAY_MAX_PENDING) or the budget was full.',
    labelNames: ['listener'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (!gateway) return;
      for (const listener of LISTENERS) this.inc({ listener }, gateway.protection[listener].evicted);
    },
  });
  new Counter({
    name: 'resi_gateway_handshake_timeouts_total',
    help: 'Connections closed because their request head or SOCKS5 handshake was not complete within GATEWAY_HANDSHAKE_MS.',
    labelNames: ['listener'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (!gateway) return;
      for (const listener of LISTENERS) this.inc({ listener }, gateway.protection[listener].timedOut);
    },
  });
  new Gauge({
    name: 'resi_gateway_connections_open',
    help: 'Client connections carrying a proxy account\'s traffic on this gateway (tunnels and kept-alive plain HTTP).',
    registers: [registry],
    collect() {
      this.set(gateway?.liveConnections() ?? 0);
    },
  });
  new Gauge({
    name: 'resi_gateway_flush_lag_seconds',
    help: 'Seconds since everything this gateway metered was last in the store; about the flush interval (5 s) when healthy.',
    registers: [registry],
    collect() {
      this.set((Date.now() - durableAt) / 1000);
    },
  });
  const flushes = new Counter({
    name: 'resi_gateway_flushes_total',
    help: 'Usage flushes to the store by outcome (ok; failed: the batch is retried with the next flush).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const flushDurations = new Histogram({
    name: 'resi_gateway_flush_duration_seconds',
    help: 'How long a usage flush to the store took.',
    registers: [registry],
  });

  return {
    metrics: {
      refused(listener, reason) {
        const counts = refusals[listener];
        counts.set(reason, (counts.get(reason) ?? 0) + 1);
      },
      carried(up, down) {
        bytesUp += up;
        bytesDown += down;
      },
      flushed(durable, seconds) {
        if (durable) durableAt = Date.now();
        flushes.inc({ outcome: durable ? 'ok' : 'failed' });
        flushDurations.observe(seconds);
      },
    },
    watch(g) {
      gateway = g;
    },
  };
}
