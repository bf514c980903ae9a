/**
 * Coarse deadlines for many short waits (dialing an exit, a client's first bytes, a plain request's
 * answer), checked by one shared timer instead of a timer per socket: arming and disarming a timer per
 * connection shows at thousands of new tunnels a second. A deadline fires up to SWEEP_MS late.
 */
const SWEEP_MS = 250;

/**
 * The armed deadlines, in no order. Each knows its own position, so disarming is a swap with the last
 * one: O(1), and no Map keyed by the waiting objects (why: indexed-set.ts).
 */
const armed: Deadline[] = [];
let sweeper: NodeJS.Timeout | null = null;

/** One wait: `fire` is called once at (or a little after) the time it is armed for, unless cancelled first. */
export class Deadline {
  /** Position in `armed`; -1 when not armed. */
  private slot = -1;
  private at = 0;

  constructor(private readonly onDue: () => void) {}

  /** Called once when due; a subclass may answer here itself instead of through a closure. */
  protected fire(): void {
    this.onDue();
  }

  /** Arms for `at` (ms since epoch), or moves an armed deadline there. */
  arm(at: number): this {
    this.at = at;
    if (this.slot === -1) {
      this.slot = armed.length;
      armed.push(this);
      if (!sweeper) startSweeper();
    }
    return this;
  }

  cancel(): void {
    if (this.slot === -1) return;
    const last = armed.pop()!;
    if (last !== this) {
      armed[this.slot] = last;
      last.slot = this.slot;
    }
    this.slot = -1;
  }

  /** Disarms and returns true when due at `now`. */
  private takeIfDue(now: number): boolean {
    if (this.at > now) return false;
    this.cancel();
    return true;
  }

  static sweep(now: number): void {
    // Collected first: a fired deadline may arm or cancel others.
    const due: Deadline[] = [];
    for (let i = armed.length - 1; i >= 0; i--) {
      const d = armed[i]!;
      if (d.takeIfDue(now)) due.push(d);
    }
    for (const d of due) d.fire();
    if (armed.length === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }
}

function startSweeper(): void {
  sweeper = setInterval(() => Deadline.sweep(Date.now()), SWEEP_MS);
  sweeper.unref();
}

/** A deadline armed for `at` (ms since epoch); cancel it when the wait is over. */
export function expireAt(at: number, fire: () => void): Deadline {
  return new Deadline(fire).arm(at);
}
