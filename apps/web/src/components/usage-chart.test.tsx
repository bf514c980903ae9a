import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageChart } from './usage-chart';
import { byteTicks, labelEvery } from './usage-chart-scale';

const GB = 1024 ** 3;
const day = (bucket: string, bytesDown: number, bytesUp: number) => ({ bucket, bytesDown, bytesUp });

describe('byteTicks', () => {
  it('steps in round binary units up to the first tick at or above the maximum', () => {
    expect(byteTicks(3 * GB)).toEqual([0, GB, 2 * GB, 3 * GB]);
    expect(byteTicks(1000)).toEqual([0, 250, 500, 750, 1000]);
    expect(byteTicks(1025)).toEqual([0, 1024, 2048]);
    expect(byteTicks(700 * 1024 ** 2)).toEqual([0, 200, 400, 600, 800].map((mb) => mb * 1024 ** 2));
  });

  it('still draws an axis when nothing was used', () => {
    expect(byteTicks(0)).toEqual([0, 1024]);
  });
});

describe('labelEvery', () => {
  it('thins the x labels so that they do not overlap', () => {
    expect(labelEvery(7, 560)).toBe(1);
    expect(labelEvery(30, 560)).toBe(3);
    expect(labelEvery(24, 200)).toBe(6);
  });
});

describe('UsageChart', () => {
  const series = [day('2026-11-20', 2 * GB, GB), day('2026-11-21', 0, 0), day('2026-11-22', GB, 0)];

  it('stacks upload on download, bar heights in proportion to the bytes', () => {
    const { container } = render(<UsageChart series={series} />);
    const down = [...container.querySelectorAll('.usage-chart__bar--down')];
    const up = [...container.querySelectorAll('.usage-chart__bar--up')];
    // No rectangle for an empty bucket or part.
    expect(down).toHaveLength(2);
    expect(up).toHaveLength(1);
    const height = (el: Element) => Number(el.getAttribute('height'));
    const yOf = (el: Element) => Number(el.getAttribute('y'));
    expect(height(down[0]!)).toBeCloseTo(2 * height(down[1]!));
    expect(height(up[0]!)).toBeCloseTo(height(down[1]!));
    expect(yOf(up[0]!) + height(up[0]!)).toBeCloseTo(yOf(down[0]!));
    // Both bars stand on the same baseline.
    expect(yOf(down[0]!) + height(down[0]!)).toBeCloseTo(yOf(down[1]!) + height(down[1]!));
  });

  it('labels the axes and names each bucket with its bytes', () => {
    const { container } = render(<UsageChart series={series} />);
    const ticks = [...container.querySelectorAll('.usage-chart__tick text')].map((el) => el.textContent);
    expect(ticks).toEqual(['0 B', '1 GB', '2 GB', '3 GB']);
    const labels = [...container.querySelectorAll('.usage-chart__label')].map((el) => el.textContent);
    expect(labels).toEqual(['11-20', '11-21', '11-22']);
    const titles = [...container.querySelectorAll('.usage-chart__column title')].map((el) => el.textContent);
    expect(titles[0]).toBe('2026-11-20\nDownload: 2 GB\nUpload: 1 GB');
    expect(titles[1]).toBe('2026-11-21\nDownload: 0 B\nUpload: 0 B');
    expect(container.querySelector('.usage-chart__legend')?.textContent).toBe('DownloadUpload');
  });

  it('draws an empty axis for an empty series', () => {
    const { container } = render(<UsageChart series={[]} height={220} />);
    expect(container.querySelectorAll('.usage-chart__bar')).toHaveLength(0);
    expect([...container.querySelectorAll('.usage-chart__tick text')].map((el) => el.textContent)).toEqual(['0 B', '1 KB']);
  });
});
