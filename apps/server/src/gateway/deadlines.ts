/**
 * Coarse deadlines for many short waits (dialing an exit, a client's first bytes), checked by one
 * shared timer instead of a timer per socket: arming and disarming a timer per connection shows at
 * thousands of new tunnels a second. A deadline fires up to SWEEP_MS late.
 */
const SWEEP_MS = 250;
const deadlines = new Map<() => void, number>();
let sweeper: NodeJS.Timeout | null = null;

/** Calls `fire` once at (or a little after) `at` (ms since epoch), unless cancelled first. */
export function expireAt(at: number, fire: () => void): void {
  deadlines.set(fire, at);
  if (sweeper) return;
  sweeper = setInterval(() => {
    const now = Date.now();
    for (const [f, t] of deadlines) {
      if (t > now) continue;
      deadlines.delete(f);
      f();
    }
    if (deadlines.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }, SWEEP_MS);
  sweeper.unref();
}

export function cancelExpiry(fire: () => void): void {
  deadlines.delete(fire);
}
