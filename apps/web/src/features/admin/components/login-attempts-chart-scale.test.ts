import { describe, expect, it } from 'vitest';
import { countTicks, dayLabelEvery } from './login-attempts-chart-scale';

describe('login chart scale', () => {
  it('steps the count axis in round numbers from 0 to the first tick at or above the top', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(countTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('labels every day when they fit and every few days when they do not', () => {
    expect(dayLabelEvery(7, 600)).toBe(1);
    expect(dayLabelEvery(30, 300)).toBe(5);
    expect(dayLabelEvery(0, 300)).toBe(1);
  });
});
