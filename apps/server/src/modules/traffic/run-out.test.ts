import { describe, expect, it } from 'vitest';
import { runOutAt } from './run-out';

const DAY = 86_400_000;

describe('runOutAt', () => {
  it('spends grants at the pace, earliest expiry first', () => {
    // 10 GB a day; 20 GB left in one grant good for a month: two days.
    expect(runOutAt(0, 10 / DAY, [{ left: 20, expiresAt: 30 * DAY }])).toBe(2 * DAY);
    expect(runOutAt(0, 10 / DAY, [{ left: 10, expiresAt: 30 * DAY }, { left: 10, expiresAt: 5 * DAY }])).toBe(2 * DAY);
  });

  it('ends a grant at its expiry when it outlasts it, and goes on with the next', () => {
    // The first grant would last 10 days but expires after 1; the second then lasts 1 more day.
    expect(runOutAt(0, 1 / DAY, [{ left: 10, expiresAt: DAY }, { left: 1, expiresAt: 30 * DAY }])).toBe(2 * DAY);
    expect(runOutAt(0, 1 / DAY, [{ left: 10, expiresAt: 3 * DAY }])).toBe(3 * DAY);
  });

  it('is null without a pace or without anything left', () => {
    expect(runOutAt(0, 0, [{ left: 10, expiresAt: DAY }])).toBeNull();
    expect(runOutAt(0, 1, [])).toBeNull();
    expect(runOutAt(5 * DAY, 1, [{ left: 10, expiresAt: DAY }])).toBeNull();
  });
});
