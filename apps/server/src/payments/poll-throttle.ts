import type { PayMethod } from '@resi/contract';
import type { LeaseRepository } from '../lib/jobs/lease-repository';

/** The browser polls order-check every few seconds; a provider is asked about one order at most this often. */
export const QUERY_INTERVAL_MS = 10_000;

/** Whether a poll may ask the provider about an order now; a yes holds every other poll off for the interval. */
export interface PollThrottle {
  mayAsk(method: PayMethod, orderNo: string, now: Date): Promise<boolean>;
}

const PREFIX = 'poll:';
/** Spent throttle rows are swept at most this often per process. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The throttle in the store, so it holds across API processes: asking takes the lease
 * `poll:<method>:<order>` for the interval, and nobody, the asker included, gets it again before it
 * expires. Every API process behind a load balancer sees the same rows.
 */
export class LeasePollThrottle implements PollThrottle {
  private sweptAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly leases: LeaseRepository,
    private readonly intervalMs = QUERY_INTERVAL_MS,
  ) {}

  async mayAsk(method: PayMethod, orderNo: string, now: Date): Promise<boolean> {
    if (now.getTime() - this.sweptAt >= SWEEP_EVERY_MS) {
      this.sweptAt = now.getTime();
      await this.leases.sweep(PREFIX, now);
    }
    return this.leases.take(`${PREFIX}${method}:${orderNo}`, 'poll', now, this.intervalMs);
  }
}
