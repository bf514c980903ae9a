/**
 * Coarse deadlines for many short waits (dialing an exit, a client's first bytes, a plain request's
 * answer), checked by one shared timer instead of a timer per socket: arming and disarming a timer per
 * connection shows at thousands of new tunnels a second. A deadline fires up to SWEEP_MS late.
 */
const SWEEP_MS = 250;

/**
 * What to call when the time is up: a function, or an object that expires itself (a long-lived object
 * that is its own deadline needs no closure allocated per wait).
 */
export type Expiring = (() => void) | { expire(): void };

const deadlines = new Map<Expiring, number>();
let sweeper: NodeJS.Timeout | null = null;

/** Calls `fire` once at (or a little after) `at` (ms since epoch), unless cancelled first. */
export function expireAt(at: number, fire: Expiring): void {
  deadlines.set(fire, at);
  if (sweeper) return;
  sweeper = setInterval(() => {
    const now = Date.now();
    for (const [f, t] of deadlines) {
      if (t > now) continue;
      deadlines.delete(f);
      if (typeof f === 'function') f();
      else f.expire();
    }
    if (deadlines.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }, SWEEP_MS);
  sweeper.unref();
}

export function cancelExpiry(fire: Expiring): void {
  deadlines.delete(fire);
}
