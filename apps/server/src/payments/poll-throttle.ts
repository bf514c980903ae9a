/** The browser polls order-check every few seconds; a provider is asked about one order at most this often. */
export const QUERY_INTERVAL_MS = 10_000;

/**
 * Per-process memory of when each order was last asked about: `mayAsk` says whether this poll may ask the
 * provider now and, if so, notes it. Old entries are forgotten so the map stays small.
 */
export function createPollThrottle(intervalMs = QUERY_INTERVAL_MS): (orderNo: string, now: number) => boolean {
  const asked = new Map<string, number>();
  return (orderNo, now) => {
    const last = asked.get(orderNo);
    if (last !== undefined && now - last < intervalMs) return false;
    asked.set(orderNo, now);
    if (asked.size > 10_000) for (const [k, t] of asked) if (now - t >= intervalMs) asked.delete(k);
    return true;
  };
}
