import { z } from 'zod';

/**
 * "Look at this user's proxy accounts again now": sent when an account is disabled, deleted, given a new
 * password or a lower cap, or when a gateway's flush finds a balance or cap spent; and when one is
 * created, re-enabled or given a higher cap. Every gateway then re-reads the user's accounts and balance,
 * cuts what may no longer run and admits what now may, instead of waiting for its next poll
 * (docs/gateway.md#cut-off-timing). Losing one is harmless: the polling still catches up.
 */
export const cutoffEvent = z.object({
  userId: z.number().int().positive(),
  accountId: z.number().int().positive().optional(),
  /** Close this account's live connections whatever its standing: they were opened with old credentials. */
  closeLive: z.boolean().optional(),
});
export type CutoffEvent = z.infer<typeof cutoffEvent>;

/** May return a promise: a publisher in the same process waits for it (the change is then live here). */
export type CutoffHandler = (event: CutoffEvent) => void | Promise<void>;

/** The slice of a pino/Fastify logger the buses write to. */
export interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface CutoffBus {
  /**
   * Never rejects: an event that cannot be sent is logged, and the gateways' polling covers it. Resolves
   * once this process's subscribers have handled it (a gateway in this process has re-read the user), so
   * an API answer that follows is true on that gateway; other processes hear it through Redis, and a
   * gateway that has not yet reads the store again before it refuses (gateway/admission.ts, catch-up).
   */
  publish(event: CutoffEvent): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(handler: CutoffHandler): () => void;
  close(): Promise<void>;
}

/**
 * The embedded default (no REDIS_URL): API and gateway in one process hear each other directly. In a
 * lone `--role=api` or `--role=gateway` process nobody else hears it, and the gateways poll the store.
 */
export class LocalCutoffBus implements CutoffBus {
  private readonly handlers = new Set<CutoffHandler>();

  constructor(private readonly log?: BusLog) {}

  publish(event: CutoffEvent): Promise<void> {
    return this.deliver(event);
  }

  /** Hands an event to this process's subscribers and waits for them; one that fails does not stop the others. */
  async deliver(event: CutoffEvent): Promise<void> {
    const handled: Promise<void>[] = [];
    for (const handler of this.handlers) {
      try {
        const done = handler(event);
        if (done) handled.push(done.catch((err: unknown) => this.log?.warn({ err, event }, 'cut-off event handler failed')));
      } catch (err) {
        this.log?.warn({ err, event }, 'cut-off event handler failed');
      }
    }
    await Promise.all(handled);
  }

  subscribe(handler: CutoffHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  close(): Promise<void> {
    this.handlers.clear();
    return Promise.resolve();
  }
}
