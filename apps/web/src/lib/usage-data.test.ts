import { describe, expect, it } from 'vitest';
import { chartPoints, countryLabel, seriesTotal, shareRows, usageQuery } from './usage-data';

describe('usage chart data', () => {
  it('asks for hours of one day or days of a week or month, per account when one is picked', () => {
    expect(usageQuery('24h', undefined)).toEqual({ granularity: 'hour', days: 1 });
    expect(usageQuery('7d', 3)).toEqual({ granularity: 'day', days: 7, accountId: 3 });
    expect(usageQuery('30d', undefined)).toEqual({ granularity: 'day', days: 30 });
  });

  it('labels day buckets by month-day and hour buckets by local hour, keeping up and down apart', () => {
    expect(chartPoints([{ bucket: '2026-11-22', bytesUp: 10, bytesDown: 90 }])).toEqual([{ bucket: '2026-11-22', label: '11-22', up: 10, down: 90 }]);
    const [hour] = chartPoints([{ bucket: '2026-11-22T13:00:00.000Z', bytesUp: 0, bytesDown: 0 }]);
    expect(hour?.label).toMatch(/^\d{2}:00$/);
    expect(hour?.label).toBe(`${String(new Date('2026-11-22T13:00:00.000Z').getHours()).padStart(2, '0')}:00`);
  });

  it('adds up both directions of every bucket', () => {
    expect(seriesTotal([{ bucket: 'a', bytesUp: 1, bytesDown: 2 }, { bucket: 'b', bytesUp: 30, bytesDown: 400 }])).toBe(433);
    expect(seriesTotal([])).toBe(0);
  });

  it('sorts breakdowns largest first with their share, dropping empty rows', () => {
    const rows = shareRows([
      { key: 'a', label: 'A', bytes: 100 },
      { key: 'b', label: 'B', bytes: 300 },
      { key: 'c', label: 'C', bytes: 0 },
    ]);
    expect(rows).toEqual([
      { key: 'b', label: 'B', bytes: 300, percent: 75 },
      { key: 'a', label: 'A', bytes: 100, percent: 25 },
    ]);
  });

  it('names countries in the interface language', () => {
    expect(countryLabel('us', 'en', 'Any')).toBe('United States');
    expect(countryLabel('us', 'zh-cn', 'Any')).toBe('美国');
    expect(countryLabel('us', 'zh', 'Any')).toBe('美國');
    expect(countryLabel(null, 'en', 'Any')).toBe('Any');
  });
});
