/**
 * When a balance runs out at a steady pace (docs/business-rules.md#usage-alerts): usage is taken from the grant
 * that expires first (docs/business-rules.md#traffic-balance), and what a grant still holds when it expires is
 * lost, so the grants are spent in that order and each ends at whichever comes first, used up or expired.
 * Null when nothing is used (no pace) or nothing is left.
 */
export function runOutAt(now: number, bytesPerMs: number, grants: readonly { left: number; expiresAt: number }[]): number | null {
  if (bytesPerMs <= 0) return null;
  let t = now;
  let any = false;
  for (const g of [...grants].sort((a, b) => a.expiresAt - b.expiresAt)) {
    if (g.left <= 0 || g.expiresAt <= t) continue;
    any = true;
    t = Math.min(t + g.left / bytesPerMs, g.expiresAt);
  }
  return any ? t : null;
}
