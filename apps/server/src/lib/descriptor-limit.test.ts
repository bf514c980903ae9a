import { describe, expect, it } from 'vitest';
import { defaultListenerBudget, openFilesLimit } from './descriptor-limit';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             63704                63704                processes
Max open files            20000                524288               files
Max locked memory         8388608              8388608              bytes`;

describe('descriptor limit', () => {
  it('reads the soft limit of open files, and falls back to 1024 when it cannot', () => {
    expect(openFilesLimit(() => LIMITS)).toBe(20_000);
    expect(openFilesLimit(() => LIMITS.replace('20000 ', 'unlimited'))).toBe(1024);
    expect(
      openFilesLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBe(1024);
    // This process, on Linux: whatever it is, a positive number.
    expect(openFilesLimit()).toBeGreaterThan(0);
  });

  it('gives each gateway listener a fifth', () => {
    expect(defaultListenerBudget(20_000)).toBe(4000);
    expect(defaultListenerBudget(1024)).toBe(204);
    expect(defaultListenerBudget(20)).toBe(16);
  });
});
