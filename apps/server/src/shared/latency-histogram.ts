/**
 * Connect latencies as counts per bucket: each gateway process keeps one per provider for its window and
 * writes it to the store; the admin's p50/p95 come from the buckets summed over processes, which
 * percentiles of each process could not give. Bucket upper bounds in ms; the last one catches the rest.
 */
export const LATENCY_BUCKETS_MS = [5, 10, 20, 35, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000, Infinity] as const;

export type Histogram = number[];

export function emptyHistogram(): Histogram {
  return LATENCY_BUCKETS_MS.map(() => 0);
}

export function bucketOf(ms: number): number {
  let i = 0;
  while (ms > LATENCY_BUCKETS_MS[i]!) i++;
  return i;
}

export function addHistograms(into: Histogram, other: readonly number[]): Histogram {
  for (let i = 0; i < into.length; i++) into[i]! += other[i] ?? 0;
  return into;
}

/** The bucket bound under which `q` (0–1) of the counts fall; null without counts. The last bucket answers the bound before it. */
export function percentile(h: readonly number[], q: number): number | null {
  const total = h.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < h.length; i++) {
    seen += h[i]!;
    if (seen >= rank) return Number.isFinite(LATENCY_BUCKETS_MS[i]!) ? LATENCY_BUCKETS_MS[i]! : LATENCY_BUCKETS_MS[i - 1]!;
  }
  return null;
}
