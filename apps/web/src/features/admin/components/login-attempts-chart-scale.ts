/** A count axis from 0 in round steps (1, 2, 5 × 10ⁿ), about four of them; the last tick is the top. */
export function countTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const wanted = max / 4;
  const power = 10 ** Math.floor(Math.log10(wanted));
  const step = Math.max(1, ([1, 2, 5, 10].find((s) => s * power >= wanted) ?? 10) * power);
  const ticks = [0];
  while ((ticks.at(-1) ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}

/** Every how many days an x label (`MM-DD`, about 40 px) fits. */
export function dayLabelEvery(count: number, plotWidth: number, labelWidth = 44): number {
  if (count <= 0 || plotWidth <= 0) return 1;
  return Math.max(1, Math.ceil((count * labelWidth) / plotWidth));
}
