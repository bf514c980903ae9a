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

export type CutoffHandler = (event: CutoffEvent) => void;

/** The slice of a pino/Fastify logger the buses write to. */
export interface BusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface CutoffBus {
  /** Never rejects: an event that cannot be sent is logged, and the gateways' polling covers it. */
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
    this.deliver(event);
    return Promise.resolve();
  }

  /** Hands an event to this process's subscribers; one that throws does not stop the others. */
  deliver(event: CutoffEvent): void {
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch (err) {
        this.log?.warn({ err, event }, 'cut-off event handler failed');
      }
    }
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
