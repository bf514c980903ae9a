import type { MeterKey } from './live-connections';
import type { UsageDelta, UsageSink } from './ports';

const HOUR = 3_600_000;

export interface MeterLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface UsageMeterOptions {
  sink: UsageSink;
  gatewayId: string;
  /**
   * First batch number. Defaults to the start time in ms: a restarted gateway with the same id then
   * never reuses a `(gatewayId, seq)` the store has already applied, as flushes are seconds apart.
   */
  seqStart?: number;
  now?: () => number;
  log: MeterLog;
}

interface Batch {
  seq: number;
  deltas: UsageDelta[];
}

/**
 * Sums metered bytes per account, user, exit country and hour, and hands them to the store as
 * numbered batches of deltas (DESIGN §6). A batch that fails is retried as it was, with the same
 * `(gatewayId, seq)`, before anything newer is sent: the store applies a seq once, so a flush that
 * timed out but did land is not counted twice, and bytes are never folded into a new seq.
 */
export class UsageMeter {
  private sums = new Map<string, UsageDelta>();
  private pending: Batch | null = null;
  private nextSeq: number;
  private inFlight: Promise<boolean> | null = null;
  private readonly now: () => number;

  constructor(private readonly opts: UsageMeterOptions) {
    this.now = opts.now ?? Date.now;
    this.nextSeq = opts.seqStart ?? this.now();
  }

  readonly record = (key: MeterKey, bytesUp: number, bytesDown: number): void => {
    const hourStart = Math.floor(this.now() / HOUR) * HOUR;
    const id = `${hourStart}|${key.accountId}|${key.country ?? ''}`;
    const sum = this.sums.get(id);
    if (sum) {
      sum.bytesUp += bytesUp;
      sum.bytesDown += bytesDown;
    } else {
      const hour = new Date(hourStart).toISOString();
      this.sums.set(id, { accountId: key.accountId, userId: key.userId, hour, country: key.country, bytesUp, bytesDown });
    }
  };

  /** Bytes recorded but not yet durable (unsent sums plus a failed batch). */
  unflushed(): { bytesUp: number; bytesDown: number } {
    let bytesUp = 0;
    let bytesDown = 0;
    for (const d of [...this.sums.values(), ...(this.pending?.deltas ?? [])]) {
      bytesUp += d.bytesUp;
      bytesDown += d.bytesDown;
    }
    return { bytesUp, bytesDown };
  }

  /**
   * Sends the pending batch if one failed before, then the sums so far as a new batch. Resolves true
   * when everything recorded before the call is durable. Calls made while a flush runs share it.
   */
  flush(): Promise<boolean> {
    if (!this.inFlight) {
      this.inFlight = this.run().finally(() => {
        this.inFlight = null;
      });
    }
    return this.inFlight;
  }

  private async run(): Promise<boolean> {
    if (!this.pending) {
      if (this.sums.size === 0) return true;
      this.pending = { seq: this.nextSeq++, deltas: [...this.sums.values()] };
      this.sums = new Map();
    }
    const batch = this.pending;
    try {
      await this.opts.sink.flush(this.opts.gatewayId, batch.seq, batch.deltas);
    } catch (err) {
      this.opts.log.warn({ err, seq: batch.seq, deltas: batch.deltas.length }, 'gateway usage flush failed; the same batch will be retried');
      return false;
    }
    this.pending = null;
    // Bytes recorded while that batch was pending go out now, as the next seq.
    return this.sums.size === 0 ? true : this.run();
  }
}
