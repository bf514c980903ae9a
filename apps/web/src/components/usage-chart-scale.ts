/*
 * The y axis of the usage chart: a few round steps in the binary units formatBytes prints (KB, MB, GB…
 * of 1024), so tick labels read `0 B, 256 MB, 512 MB, 768 MB` and never `0 B, 244.14 MB, …`.
 */
const STEPS = [1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500];
const TICK_COUNT = 4;

/** Tick values from 0 to the first tick at or above `max`; the last one is the top of the axis. */
export function byteTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1024];
  const unit = 1024 ** Math.max(0, Math.floor(Math.log(max) / Math.log(1024)));
  const wanted = max / unit / TICK_COUNT;
  // 1024 units per step at most: beyond the last step the next unit begins.
  const step = (STEPS.find((s) => s >= wanted) ?? 1024) * unit;
  const ticks = [0];
  while ((ticks.at(-1) ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}

/** Every how many buckets an x label fits, for labels about `labelWidth` pixels wide. */
export function labelEvery(count: number, plotWidth: number, labelWidth = 44): number {
  if (count <= 0 || plotWidth <= 0) return 1;
  return Math.max(1, Math.ceil((count * labelWidth) / plotWidth));
}
