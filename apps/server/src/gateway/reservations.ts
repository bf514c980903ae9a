import type { GatewayLog } from './gateway-log';
import type { BudgetSubject, ReservationStore } from './ports';

export interface ReservationsOptions {
  store: ReservationStore;
  gatewayId: string;
  /** Bytes asked for at a time: one lease. */
  want: number;
  /** A budget the store refused is asked again at most this often (default 1 s), with no credit meanwhile. */
  retryMs?: number;
  /** A budget with no live connection here hands back what it holds after this long. */
  idleMs: number;
  log: GatewayLog;
  /** An answer came for the subject (the live connections re-check its budget). */
  onAnswer?: (subject: BudgetSubject) => void;
  now?: () => number;
}

const keyOf = (s: BudgetSubject) => (s.kind === 'user' ? s.id : -s.id);
const subjectOf = (key: number): BudgetSubject => (key > 0 ? { kind: 'user', id: key } : { kind: 'account', id: -key });

/**
 * This gateway process's share of the budgets it serves when several processes serve them
 * (docs/gateway.md, "Several gateway processes"). For each budget it mirrors its row in the store:
 * bytes reserved minus the bytes its landed batches billed. It may carry that minus its unflushed
 * bytes, plus a credit of a quarter lease (so a new connection need not wait for the store) — and no
 * credit once the store said nothing is free, until it grants again. With what is on its way when the
 * connections hold still (a socket read or two), a process overshoots by less than one lease.
 */
export class Reservations {
  /** Keys: a user id (balance) or minus an account id (cap); ids are positive. */
  private readonly held = new Map<number, number>();
  private readonly asking = new Set<number>();
  /** The store said nothing is free (when): no credit until it grants again. */
  private readonly refused = new Map<number, number>();
  /** The store did not answer: this process falls back to the store's figure alone until it does. */
  private readonly unreachable = new Set<number>();
  private readonly idleSince = new Map<number, number>();
  private readonly now: () => number;

  constructor(private readonly o: ReservationsOptions) {
    this.now = o.now ?? Date.now;
  }

  get credit(): number {
    return this.o.want / 4;
  }

  /** What this process may still carry of the budget, given its bytes not yet in a landed batch. */
  share(subject: BudgetSubject, unflushed: number): number {
    const key = keyOf(subject);
    if (this.unreachable.has(key)) return Infinity;
    return (this.held.get(key) ?? 0) - unflushed + (this.refused.has(key) ? 0 : this.credit);
  }

  isAsking(subject: BudgetSubject): boolean {
    return this.asking.has(keyOf(subject));
  }

  /** Asks the store for one more lease of the budget, unless an ask is on its way or it refused just now. */
  ask(subject: BudgetSubject): void {
    const key = keyOf(subject);
    if (this.asking.has(key)) return;
    const refusedAt = this.refused.get(key);
    if (refusedAt !== undefined && this.now() - refusedAt < (this.o.retryMs ?? 1000)) return;
    this.asking.add(key);
    this.o.store.reserve(this.o.gatewayId, subject, this.o.want).then(
      (granted) => {
        this.unreachable.delete(key);
        if (granted > 0) {
          this.held.set(key, (this.held.get(key) ?? 0) + granted);
          this.refused.delete(key);
        } else {
          this.refused.set(key, this.now());
        }
        this.answered(key, subject);
      },
      (err: unknown) => {
        if (!this.unreachable.has(key)) this.o.log.warn({ err, subject }, 'gateway: reserving bytes of a budget failed; its store figure alone bounds it until the store answers');
        this.unreachable.add(key);
        this.answered(key, subject);
      },
    );
  }

  /** A usage batch landed: the store took its bytes out of this gateway's rows in the same transaction. */
  landed(byUser: ReadonlyMap<number, number>, byAccount: ReadonlyMap<number, number>): void {
    for (const [id, bytes] of byUser) this.bill(id, bytes);
    for (const [id, bytes] of byAccount) this.bill(-id, bytes);
  }

  /**
   * Hands back what budgets without a live connection here hold beyond their unflushed bytes, once they
   * have been idle `idleMs`: an idle process must not keep a customer's last megabytes from the others.
   * Also forgets old refusals and outages of budgets no longer in use.
   */
  releaseIdle(inUse: (subject: BudgetSubject) => boolean, unflushed: (subject: BudgetSubject) => number): void {
    const now = this.now();
    for (const key of new Set([...this.held.keys(), ...this.refused.keys(), ...this.unreachable])) {
      const subject = subjectOf(key);
      if (inUse(subject) || this.asking.has(key)) {
        this.idleSince.delete(key);
        continue;
      }
      const since = this.idleSince.get(key);
      if (since === undefined) {
        this.idleSince.set(key, now);
        continue;
      }
      if (now - since < this.o.idleMs) continue;
      this.idleSince.delete(key);
      this.refused.delete(key);
      this.unreachable.delete(key);
      const spare = (this.held.get(key) ?? 0) - unflushed(subject);
      if (spare <= 0) continue;
      this.bill(key, spare);
      this.o.store.release(this.o.gatewayId, subject, spare).catch((err: unknown) => {
        // The row keeps the bytes until it lapses: the budget is only smaller for the others a while.
        this.o.log.warn({ err, subject }, 'gateway: handing back reserved bytes failed');
      });
    }
  }

  keepAlive(): Promise<void> {
    return this.held.size === 0 ? Promise.resolve() : this.o.store.keepAlive(this.o.gatewayId);
  }

  async stop(): Promise<void> {
    this.held.clear();
    await this.o.store.dropAll(this.o.gatewayId);
  }

  private answered(key: number, subject: BudgetSubject): void {
    this.asking.delete(key);
    this.o.onAnswer?.(subject);
  }

  private bill(key: number, bytes: number): void {
    const left = (this.held.get(key) ?? 0) - bytes;
    if (left > 0) this.held.set(key, left);
    else this.held.delete(key);
  }
}
