import { type Histogram, bucketOf, emptyHistogram } from '../shared/latency-histogram';
import type { Exit } from './ports';
import type { DialFailure } from './statuses';
import type { HealthView } from './upstream-exit-chooser';

/** Failures that are the provider's (it could not be reached, refused us, timed out or broke the handshake), not the target's. */
const PROVIDER_FAILURES: ReadonlySet<DialFailure> = new Set(['UPSTREAM_REFUSED', 'UPSTREAM_UNREACHABLE', 'UPSTREAM_TIMEOUT', 'UPSTREAM_AUTH', 'UPSTREAM_ERROR']);

export function isProviderFailure(failure: DialFailure | null): boolean {
  return failure !== null && PROVIDER_FAILURES.has(failure);
}

export interface BreakerPolicy {
  /** The sliding window dials are counted over, in `buckets` slices. */
  windowMs: number;
  buckets: number;
  /** A breaker trips on this many failures in a row, or when the window holds at least this many failures… */
  minFailures: number;
  /** …and they are at least this share of its dials (a provider failing often, not always). */
  failureRatio: number;
  /** A tripped provider or upstream is left alone this long, then tried again. */
  pauseMs: number;
}

export const DEFAULT_BREAKER: BreakerPolicy = { windowMs: 30_000, buckets: 6, minFailures: 5, failureRatio: 0.5, pauseMs: 30_000 };

interface Slice {
  start: number;
  attempts: number;
  failures: number;
  latencies: Histogram | null;
}

/**
 * One breaker: the window's counts, and its state. `down` until `retryAt`; then `trial` — chosen again, and
 * the next outcome decides (a success closes it, a failure opens it for another pause): a half-open breaker.
 */
class Breaker {
  state: 'up' | 'down' | 'trial' = 'up';
  retryAt = 0;
  trippedAt = 0;
  lastError: DialFailure | null = null;
  /** Failures since the last success: a provider that died fails every dial, whatever its good history in the window. */
  private inARow = 0;
  private readonly slices: Slice[] = [];

  constructor(
    private readonly policy: BreakerPolicy,
    private readonly keepLatencies: boolean,
  ) {}

  /** Returns true when this outcome changed the state. `latencyMs` null: a success without a connect time (plain HTTP). */
  record(now: number, failure: DialFailure | null, latencyMs: number | null): boolean {
    const slice = this.slice(now);
    slice.attempts++;
    if (failure) {
      slice.failures++;
      this.inARow++;
      this.lastError = failure;
    } else {
      this.inARow = 0;
      if (slice.latencies && latencyMs !== null) slice.latencies[bucketOf(latencyMs)]!++;
    }
    if (this.state === 'trial') {
      if (failure) this.trip(now);
      else this.reset();
      return true;
    }
    if (this.state === 'up' && failure) {
      const { attempts, failures } = this.totals(now);
      if (this.inARow >= this.policy.minFailures || (failures >= this.policy.minFailures && failures >= attempts * this.policy.failureRatio)) {
        this.trip(now);
        return true;
      }
    }
    return false;
  }

  /** A down breaker whose pause is over becomes a trial; true when it did. */
  expire(now: number): boolean {
    if (this.state !== 'down' || now < this.retryAt) return false;
    this.state = 'trial';
    return true;
  }

  reset(): void {
    this.state = 'up';
    this.inARow = 0;
    this.slices.length = 0;
  }

  totals(now: number): { attempts: number; failures: number; latencies: Histogram } {
    let attempts = 0;
    let failures = 0;
    const latencies = emptyHistogram();
    for (const s of this.slices) {
      if (s.start <= now - this.policy.windowMs) continue;
      attempts += s.attempts;
      failures += s.failures;
      if (s.latencies) for (let i = 0; i < latencies.length; i++) latencies[i]! += s.latencies[i]!;
    }
    return { attempts, failures, latencies };
  }

  private trip(now: number): void {
    this.state = 'down';
    this.trippedAt = now;
    this.retryAt = now + this.policy.pauseMs;
  }

  private slice(now: number): Slice {
    const width = this.policy.windowMs / this.policy.buckets;
    const start = Math.floor(now / width) * width;
    const last = this.slices.at(-1);
    if (last?.start === start) return last;
    const fresh = { start, attempts: 0, failures: 0, latencies: this.keepLatencies ? emptyHistogram() : null };
    this.slices.push(fresh);
    while (this.slices.length > this.policy.buckets) this.slices.shift();
    return fresh;
  }
}

/** A provider's state as the store holds it (shared by every gateway process). */
export interface SharedHealth {
  providerId: number;
  state: 'up' | 'down' | 'probing';
  /** When it last changed, ms since epoch. */
  since: number;
}

/** A provider's window on this process, for the admin's success rate and latency. */
export interface HealthWindow {
  providerId: number;
  attempts: number;
  failures: number;
  latencies: Histogram;
}

export interface ProviderHealthOptions {
  policy?: Partial<BreakerPolicy>;
  now?: () => number;
  /** A provider's breaker tripped here: the store spreads it to every gateway process. */
  onTrip?: (providerId: number, error: DialFailure | null) => void;
}

/**
 * Passive health (docs/gateway.md#health-and-failover): every dial through a provider's exit is counted for
 * the provider and for the upstream of its list, over a sliding window; a breaker that trips takes the
 * provider (or the one upstream) out of the chooser's choice. The shared state from the store (`share`)
 * takes a provider out on every process, whichever process saw it fail; only the store puts a shared
 * down back (the prober). Without a store the local breaker retries by itself after its pause.
 */
export class ProviderHealth implements HealthView {
  private readonly providers = new Map<number, Breaker>();
  private readonly upstreams = new Map<string, Breaker & { providerId?: number }>();
  private shared = new Map<number, SharedHealth>();
  private changes = 0;
  private nextExpiry = Infinity;
  private readonly policy: BreakerPolicy;
  private readonly now: () => number;

  constructor(private readonly opts: ProviderHealthOptions = {}) {
    this.policy = { ...DEFAULT_BREAKER, ...opts.policy };
    this.now = opts.now ?? Date.now;
  }

  /** How long a tripped breaker leaves its provider alone. */
  get pauseMs(): number {
    return this.policy.pauseMs;
  }

  /** Changes whenever a provider or upstream goes in or out; read by the chooser before it uses its cache. */
  get version(): number {
    const now = this.now();
    if (now >= this.nextExpiry) this.expire(now);
    return this.changes;
  }

  providerUp(providerId: number): boolean {
    // Down, or being probed before it is put back: out until the store says up.
    const shared = this.shared.get(providerId);
    if (shared && shared.state !== 'up') return false;
    return this.providers.get(providerId)?.state !== 'down';
  }

  upstreamUp(upstreamId: string): boolean {
    return this.upstreams.get(upstreamId)?.state !== 'down';
  }

  /**
   * One dial through `exit`: a provider's failure, or a success (`failure` null) with its connect time (null for a
   * plain request's answer, whose time is the origin's too). A target's failure is not counted.
   */
  record(exit: Exit, failure: DialFailure | null, latencyMs: number | null): void {
    if (exit.providerId === undefined || (failure !== null && !isProviderFailure(failure))) return;
    const now = this.now();
    let provider = this.providers.get(exit.providerId);
    if (!provider) this.providers.set(exit.providerId, (provider = new Breaker(this.policy, true)));
    if (provider.record(now, failure, latencyMs)) {
      this.changed(provider);
      if (provider.state === 'down') this.opts.onTrip?.(exit.providerId, provider.lastError);
    }
    if (!exit.id.startsWith('upstream-')) return;
    let upstream = this.upstreams.get(exit.id);
    if (!upstream) {
      if (!failure) return;
      this.upstreams.set(exit.id, (upstream = Object.assign(new Breaker(this.policy, false), { providerId: exit.providerId })));
    }
    if (upstream.record(now, failure, latencyMs)) this.changed(upstream);
    // A healthy upstream needs no record: it is dropped once it holds nothing (up again, window empty).
    if (upstream.state === 'up' && upstream.totals(now).failures === 0) this.upstreams.delete(exit.id);
  }

  /**
   * The states every process shares (from the store). A provider put back up there after it tripped here
   * starts afresh here too: the failures that tripped it are history.
   */
  share(states: readonly SharedHealth[]): void {
    const next = new Map(states.map((s) => [s.providerId, s]));
    let changed = next.size !== this.shared.size;
    for (const [id, s] of next) {
      const before = this.shared.get(id);
      if (before?.state !== s.state) changed = true;
      const local = this.providers.get(id);
      if (s.state === 'up' && local && local.state !== 'up' && s.since > local.trippedAt) {
        local.reset();
        // Its upstreams failed with it: back with it.
        for (const [upstreamId, u] of this.upstreams) if (u.providerId === id) this.upstreams.delete(upstreamId);
        changed = true;
      }
    }
    this.shared = next;
    if (changed) this.changes++;
  }

  /** This process's windows, for the admin (written to the store with each flush). */
  windows(): HealthWindow[] {
    const now = this.now();
    return [...this.providers].map(([providerId, b]) => ({ providerId, ...b.totals(now) }));
  }

  private changed(b: Breaker): void {
    this.changes++;
    if (b.state === 'down') this.nextExpiry = Math.min(this.nextExpiry, b.retryAt);
  }

  private expire(now: number): void {
    this.nextExpiry = Infinity;
    for (const b of [...this.providers.values(), ...this.upstreams.values()]) {
      if (b.expire(now)) this.changes++;
      else if (b.state === 'down') this.nextExpiry = Math.min(this.nextExpiry, b.retryAt);
    }
  }
}
