import { describe, expect, it } from 'vitest';
import { decimalTicks } from './chart-ticks';

describe('decimalTicks', () => {
  it('steps in 1, 2, 2.5 or 5 times a power of ten up to the first tick at or above the maximum', () => {
    expect(decimalTicks(1000)).toEqual([0, 250, 500, 750, 1000]);
    expect(decimalTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(decimalTicks(123_456)).toEqual([0, 50_000, 100_000, 150_000]);
  });

  it('keeps whole steps for small counts and an axis for nothing', () => {
    expect(decimalTicks(1)).toEqual([0, 1]);
    expect(decimalTicks(3)).toEqual([0, 1, 2, 3]);
    expect(decimalTicks(0)).toEqual([0, 1]);
  });
});
