import type net from 'node:net';
import { keyOf } from './admission';
import type { DestinationGuard } from './destination-guard';
import { dialExit } from './exit-dialer';
import type { MeterKey } from './live-connections';
import type { Exit, ExitChooser, ProxyParams } from './ports';
import { type ProviderHealth, isProviderFailure } from './provider-health';
import type { DialFailure } from './statuses';

/** A retry needs at least this much of the connect timeout left to be worth making. */
const MIN_RETRY_MS = 250;

export interface FailoverDeps {
  chooser: ExitChooser;
  health: ProviderHealth | null;
  guard: DestinationGuard;
  connectTimeoutMs: number;
}

/**
 * Dials a tunnel's exit (CONNECT and SOCKS5; docs/gateway.md#health-and-failover): each dial is counted for the
 * provider's health, and a dial that fails for the provider's fault — before the client has been answered — is
 * made once more through another healthy provider that serves the request's region. Both dials share one
 * connect timeout, so the client waits no longer than it would for one: when another provider could take the
 * retry, the first dial gets half of it, so a provider that swallows connections (no refusal, no answer) costs
 * its clients half the timeout instead of all of it and a 504. `done` hears the meter key of the exit that
 * carries the tunnel (its provider's).
 */
export function dialWithFailover(
  d: FailoverDeps,
  a: { key: MeterKey; params: ProxyParams; exit: Exit },
  host: string,
  port: number,
  done: (failure: DialFailure | null, socket: net.Socket | null, key: MeterKey) => void,
): () => void {
  const deadline = Date.now() + d.connectTimeoutMs;
  let retried = false;
  let cancel: () => void = () => undefined;
  const attempt = (exit: Exit) => {
    const started = Date.now();
    const canRetry = !retried && exit.providerId !== undefined && d.chooser.servesWithout(a.params, exit.providerId);
    const budget = canRetry ? Math.floor((deadline - started) / 2) : deadline - started;
    cancel = dialExit(exit, host, port, Math.max(1, budget), d.guard, (failure, socket) => {
      d.health?.record(exit, failure, Date.now() - started);
      if (socket && !failure) return done(null, socket, keyOf(a.key, exit));
      if (!retried && exit.providerId !== undefined && isProviderFailure(failure) && deadline - Date.now() >= MIN_RETRY_MS) {
        const next = d.chooser.choose(a.params, a.key.accountId, exit.providerId);
        if (!('refusal' in next)) {
          retried = true;
          return attempt(next);
        }
      }
      done(failure ?? 'UPSTREAM_ERROR', null, a.key);
    });
  };
  attempt(a.exit);
  return () => cancel();
}
