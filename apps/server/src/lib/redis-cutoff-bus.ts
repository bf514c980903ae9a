import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { type BusLog, type CutoffBus, type CutoffEvent, type CutoffHandler, LocalCutoffBus, cutoffEvent } from './cutoff-bus';

export interface RedisCutoffBusOptions {
  url: string;
  /** Starts the channel name, so deployments (or test runs) sharing one Redis never hear each other. */
  prefix: string;
  log: BusLog;
}

/**
 * Cut-off events between processes over Redis pub/sub (REDIS_URL). Subscribers in this process get an
 * event at once, without the round trip; other processes get it through the channel. Redis being down
 * never fails a request or stops a process: publishing gives up at once (no offline queue), ioredis
 * reconnects with backoff, and meanwhile the gateways' polling of the store does the cut-offs.
 */
export class RedisCutoffBus implements CutoffBus {
  readonly channel: string;
  private readonly local: LocalCutoffBus;
  /** Marks this process's own messages, which it has already delivered locally. */
  private readonly origin = randomBytes(8).toString('hex');
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly warned = { pub: false, sub: false };
  private closed = false;

  constructor(private readonly o: RedisCutoffBusOptions) {
    this.channel = `${o.prefix}cutoffs`;
    this.local = new LocalCutoffBus(o.log);
    const common = { connectionName: 'resi-cutoffs', connectTimeout: 5000, commandTimeout: 2000, enableOfflineQueue: false, maxRetriesPerRequest: 0 };
    this.pub = new Redis(o.url, common);
    // Subscribes on every 'ready' itself: ioredis only resubscribes channels whose first SUBSCRIBE
    // succeeded, which it cannot have done when Redis was down at start.
    this.sub = new Redis(o.url, { ...common, commandTimeout: undefined, autoResubscribe: false });
    this.watch('pub', this.pub);
    this.watch('sub', this.sub);
    this.sub.on('ready', () => {
      this.sub.subscribe(this.channel).catch((err: unknown) => this.lost('sub', err));
    });
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
  }

  async publish(event: CutoffEvent): Promise<void> {
    const here = this.local.deliver(event);
    if (!this.closed) {
      try {
        await this.pub.publish(this.channel, JSON.stringify({ origin: this.origin, event }));
      } catch (err) {
        this.lost('pub', err);
      }
    }
    await here;
  }

  /** PING on the publishing connection: fails at once while it is disconnected (no offline queue). */
  async ping(): Promise<void> {
    await this.pub.ping();
  }

  subscribe(handler: CutoffHandler): () => void {
    return this.local.subscribe(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    // disconnect, not quit: quit would wait for a Redis that may be gone.
    this.pub.disconnect();
    this.sub.disconnect();
  }

  private receive(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const { origin, event } = (parsed ?? {}) as { origin?: unknown; event?: unknown };
    if (origin === this.origin) return;
    const ok = cutoffEvent.safeParse(event);
    if (ok.success) void this.local.deliver(ok.data);
  }

  private watch(which: 'pub' | 'sub', conn: Redis): void {
    // An 'error' listener keeps ioredis from reporting unhandled errors; it reconnects on its own.
    conn.on('error', (err: unknown) => this.lost(which, err));
    conn.on('close', () => {
      if (!this.closed) this.lost(which, new Error('connection closed'));
    });
    conn.on('ready', () => {
      if (this.warned[which]) this.o.log.info({ channel: this.channel, connection: which }, 'cut-off events: Redis reachable again');
      this.warned[which] = false;
    });
  }

  /** One warning per outage and connection, not one per reconnect attempt. */
  private lost(which: 'pub' | 'sub', err: unknown): void {
    if (this.warned[which] || this.closed) return;
    this.warned[which] = true;
    const reason = err instanceof Error ? err.message : String(err);
    this.o.log.warn(
      { channel: this.channel, connection: which, reason },
      which === 'pub'
        ? 'cut-off events: cannot publish to Redis; gateways will see changes at their next poll of the store'
        : 'cut-off events: not subscribed to Redis; this gateway falls back to polling the store',
    );
  }
}
