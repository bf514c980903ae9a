import { describe, expect, it } from 'vitest';
import { bytesText } from './alert-service';

describe('bytesText (alert e-mails)', () => {
  it('picks the unit that keeps the figure readable', () => {
    expect(bytesText(1_048_576, 'en')).toBe('1 MB');
    expect(bytesText(1_051_079, 'en')).toBe('1 MB');
    expect(bytesText(1.5 * 1024 ** 3, 'zh-CN')).toBe('1.5 GB');
    expect(bytesText(512, 'en')).toBe('512 B');
  });
});
