import { USAGE_RECORD_MAX_DAYS } from '@resi/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaultUsageRange, formatBucket, outsideUsageWindow } from './usage-record-values';

const today = dayjs('2026-11-23T15:30:00');

describe('usage record values', () => {
  it('starts with the last 7 days, today included', () => {
    expect(defaultUsageRange(today).map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-11-17', '2026-11-23']);
  });

  it(`offers no future day and no window longer than ${USAGE_RECORD_MAX_DAYS} days`, () => {
    expect(outsideUsageWindow(today, undefined, today)).toBe(false);
    expect(outsideUsageWindow(today.add(1, 'day'), undefined, today)).toBe(true);
    expect(outsideUsageWindow(today.subtract(400, 'day'), undefined, today)).toBe(false);
    const from = dayjs('2026-10-01');
    expect(outsideUsageWindow(from.add(USAGE_RECORD_MAX_DAYS - 1, 'day'), from, today.add(1, 'year'))).toBe(false);
    expect(outsideUsageWindow(from.add(USAGE_RECORD_MAX_DAYS, 'day'), from, today.add(1, 'year'))).toBe(true);
    expect(outsideUsageWindow(from.subtract(USAGE_RECORD_MAX_DAYS - 1, 'day'), from, today)).toBe(false);
    expect(outsideUsageWindow(from.subtract(USAGE_RECORD_MAX_DAYS, 'day'), from, today)).toBe(true);
  });

  it('shows a day as its UTC date and an hour in local time, in the interface language', () => {
    expect(formatBucket('2026-11-22', 'en')).toBe('Nov 22, 2026');
    expect(formatBucket('2026-11-22', 'zh-cn')).toBe('2026年11月22日');
    const hour = '2026-11-22T13:00:00.000Z';
    expect(formatBucket(hour, 'en')).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(hour)));
    expect(formatBucket(hour, 'en')).toContain(dayjs(hour).format('h:mm'));
  });
});
