import type { GatewayReason } from './statuses';

/**
 * What the gateway tells the operators' metrics (ops/metrics.ts), at the places that already know it.
 * Figures that can be read at any time (connections open, accept-time refusals) are read from the
 * Gateway at scrape time instead. Calls are on the metering path: implementations only add numbers.
 */
/**
 * Why a client was refused: a reason of statuses.ts, or PROTOCOL for what the proxy protocol itself
 * turns away (a plain request that is not absolute-form `http:`, a SOCKS5 command, address type or auth method
 * that is not supported).
 */
export type RefusalReason = GatewayReason | 'PROTOCOL';

export interface GatewayMetrics {
  /** A client was answered with a refusal or failure (an HTTP error answer, a SOCKS5 failure reply). */
  refused(listener: 'http' | 'socks', reason: RefusalReason): void;
  /** Bytes metered to an account: `up` from the client, `down` to it. */
  carried(up: number, down: number): void;
  /** A usage flush ended; `durable`: everything metered before it is in the store. */
  flushed(durable: boolean, seconds: number): void;
}

export const noGatewayMetrics: GatewayMetrics = { refused: () => undefined, carried: () => undefined, flushed: () => undefined };
