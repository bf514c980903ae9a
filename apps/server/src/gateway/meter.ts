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
  /** A batch landed: its bytes per user and per account are now in the store (shared budgets). */
  onLanded?: (byUser: ReadonlyMap<number, number>, byAccount: ReadonlyMap<number, number>) => void;
}

interface Batch {
  seq: number;
  deltas: UsageDelta[];
  /** Bytes of the batch per user (those drawing the balance) and per account, for the byte budgets. */
  byUser: Map<number, number>;
  byAccount: Map<number, number>;
}

/**
 * Sums metered bytes per account, user, exit country, provider and hour, and hands them to the store as
 * numbered batches of deltas (docs/gateway.md#metering). A batch that fails is retried as it was, with the same
 * `(gatewayId, seq)`, before anything newer is sent: the store applies a seq once, so a flush that
 * timed out but did land is not counted twice, and bytes are never folded into a new seq.
 */
export class UsageMeter {
  private sums = new Map<string, UsageDelta>();
  /** The sums per user and per account, kept as they grow: read at every budget check (no loop over `sums`). */
  private sumsByUser = new Map<number, number>();
  private sumsByAccount = new Map<number, number>();
  private pending: Batch | null = null;
  /** Batches that landed, until the authority's figures include them (`forgetSeen`). */
  private landed: Batch[] = [];
  private nextSeq: number;
  private inFlight: Promise<boolean> | null = null;
  private readonly now: () => number;

  constructor(private readonly opts: UsageMeterOptions) {
    this.now = opts.now ?? Date.now;
    this.nextSeq = opts.seqStart ?? this.now();
  }

  readonly record = (key: MeterKey, bytesUp: number, bytesDown: number): void => {
    const hourStart = Math.floor(this.now() / HOUR) * HOUR;
    const id = `${hourStart}|${key.accountId}|${key.country ?? ''}|${key.providerId ?? ''}`;
    const bytes = bytesUp + bytesDown;
    // A static IP's bytes are no part of the user's balance: not subtracted from it, not billed from its reservation.
    if (!key.noBalance) this.sumsByUser.set(key.userId, (this.sumsByUser.get(key.userId) ?? 0) + bytes);
    this.sumsByAccount.set(key.accountId, (this.sumsByAccount.get(key.accountId) ?? 0) + bytes);
    const sum = this.sums.get(id);
    if (sum) {
      sum.bytesUp += bytesUp;
      sum.bytesDown += bytesDown;
    } else {
      const hour = new Date(hourStart).toISOString();
      const delta: UsageDelta = { accountId: key.accountId, userId: key.userId, hour, country: key.country, bytesUp, bytesDown };
      if (key.providerId !== undefined) delta.providerId = key.providerId;
      if (key.noBalance) delta.noBalance = true;
      this.sums.set(id, delta);
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
   * Bytes of a user (or an account) this gateway metered that a store figure including its batches up
   * to `seenSeq` does not hold: the unsent sums, the pending batch and landed batches numbered after
   * `seenSeq`. A batch that landed although its flush failed (a timeout) is excluded once the figure
   * shows it, so nothing is subtracted twice.
   */
  unseenOfUser(userId: number, seenSeq: number): number {
    let n = this.sumsByUser.get(userId) ?? 0;
    for (const b of this.landed) if (b.seq > seenSeq) n += b.byUser.get(userId) ?? 0;
    if (this.pending && this.pending.seq > seenSeq) n += this.pending.byUser.get(userId) ?? 0;
    return n;
  }

  unseenOfAccount(accountId: number, seenSeq: number): number {
    let n = this.sumsByAccount.get(accountId) ?? 0;
    for (const b of this.landed) if (b.seq > seenSeq) n += b.byAccount.get(accountId) ?? 0;
    if (this.pending && this.pending.seq > seenSeq) n += this.pending.byAccount.get(accountId) ?? 0;
    return n;
  }

  /** Bytes of a user (or an account) not yet in any landed batch: the unsent sums and the pending batch. */
  unflushedOfUser(userId: number): number {
    return (this.sumsByUser.get(userId) ?? 0) + (this.pending?.byUser.get(userId) ?? 0);
  }

  unflushedOfAccount(accountId: number): number {
    return (this.sumsByAccount.get(accountId) ?? 0) + (this.pending?.byAccount.get(accountId) ?? 0);
  }

  /** Drops landed batches that every figure of the authority now includes. */
  forgetSeen(seenSeq: number): void {
    if (this.landed.length > 0) this.landed = this.landed.filter((b) => b.seq > seenSeq);
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
      this.pending = { seq: this.nextSeq++, deltas: [...this.sums.values()], byUser: this.sumsByUser, byAccount: this.sumsByAccount };
      this.sums = new Map();
      this.sumsByUser = new Map();
      this.sumsByAccount = new Map();
    }
    const batch = this.pending;
    try {
      await this.opts.sink.flush(this.opts.gatewayId, batch.seq, batch.deltas);
    } catch (err) {
      this.opts.log.warn({ err, seq: batch.seq, deltas: batch.deltas.length }, 'gateway usage flush failed; the same batch will be retried');
      return false;
    }
    this.landed.push(batch);
    this.pending = null;
    this.opts.onLanded?.(batch.byUser, batch.byAccount);
    // Bytes recorded while that batch was pending go out now, as the next seq.
    return this.sums.size === 0 ? true : this.run();
  }
}
