const STEPS = [1, 2, 2.5, 5, 10];
const TICK_COUNT = 4;

/** Round decimal ticks from 0 to the first at or above `max` (counts and minor units: 0, 250, 500, 750, 1000). */
export function decimalTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const wanted = max / TICK_COUNT;
  const power = 10 ** Math.floor(Math.log10(wanted));
  // Whole numbers only: a count or an amount in minor units never has a fraction.
  const step = Math.max(1, (STEPS.find((s) => s * power >= wanted) ?? 10) * power);
  const ticks = [0];
  while ((ticks.at(-1) ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}
