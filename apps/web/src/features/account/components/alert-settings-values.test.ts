import { describe, expect, it } from 'vitest';
import { balanceBytes, gbText } from './alert-settings-values';

describe('alert settings values', () => {
  it('shows a threshold in GB without losing a small one to rounding', () => {
    expect(gbText(1024 ** 3)).toBe('1');
    expect(gbText(2.5 * 1024 ** 3)).toBe('2.5');
    expect(gbText(4 * 1024 ** 2)).toBe('0.00391');
  });

  it('keeps a saved threshold\u2019s exact bytes while its tag is unchanged', () => {
    expect(balanceBytes(['0.00391', '2'], [4 * 1024 ** 2])).toEqual([4 * 1024 ** 2, 2 * 1024 ** 3]);
  });
});
