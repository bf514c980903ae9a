import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline, expireAt } from './deadlines';

describe('deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires each deadline once, within a sweep of its time, and never a cancelled one', () => {
    const fired: string[] = [];
    const start = Date.now();
    expireAt(start + 1000, () => fired.push('a'));
    const b = expireAt(start + 1000, () => fired.push('b'));
    expireAt(start + 3000, () => fired.push('c'));
    b.cancel();
    b.cancel();

    vi.advanceTimersByTime(900);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(fired).toEqual(['a']);
    vi.advanceTimersByTime(2000);
    expect(fired).toEqual(['a', 'c']);
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual(['a', 'c']);
  });

  it('cancels a deadline that was moved in the list when another was cancelled', () => {
    const fired: string[] = [];
    const at = Date.now() + 500;
    const a = expireAt(at, () => fired.push('a'));
    expireAt(at, () => fired.push('b'));
    const c = expireAt(at, () => fired.push('c'));
    a.cancel(); // c takes a's place
    c.cancel();
    vi.advanceTimersByTime(2000);
    expect(fired).toEqual(['b']);
  });

  it('moves an armed deadline when armed again, and can be armed again after it fired', () => {
    let fired = 0;
    const d = new Deadline(() => fired++);
    d.arm(Date.now() + 500);
    d.arm(Date.now() + 2000);
    vi.advanceTimersByTime(1000);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1300);
    expect(fired).toBe(1);
    d.arm(Date.now() + 500);
    vi.advanceTimersByTime(800);
    expect(fired).toBe(2);
  });

  it('lets a firing deadline cancel or arm others in the same sweep', () => {
    const fired: string[] = [];
    const start = Date.now();
    const later = expireAt(start + 5000, () => fired.push('later'));
    const next = new Deadline(() => fired.push('next'));
    // Many armed together, so the ones fired and cancelled sit at every position of the list.
    for (let i = 0; i < 20; i++) expireAt(start + 1000, () => fired.push(`due${i}`));
    expireAt(start + 1000, () => {
      later.cancel();
      next.arm(Date.now() + 1000);
    });
    vi.advanceTimersByTime(1300);
    expect(fired.filter((f) => f.startsWith('due'))).toHaveLength(20);
    vi.advanceTimersByTime(10_000);
    expect(fired).toContain('next');
    expect(fired).not.toContain('later');
  });
});
