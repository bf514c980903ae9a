import { Segmented } from 'antd';
import type { StatisticsRow } from '@resi/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { labelEvery } from '@/components/usage-chart-scale';
import { useBoxWidth } from '@/hooks/use-box-width';
import { decimalTicks } from './chart-ticks';

export type ChartMetric = 'revenue' | 'orders' | 'registrations';

const COLORS: Record<ChartMetric, string> = { revenue: '#1d4ed8', orders: '#0f766e', registrations: '#b45309' };
const GRID = '#e8ecf3';
const AXIS_TEXT = '#6b7280';
const MARGIN = { top: 8, right: 8, bottom: 24, left: 72 };
const HEIGHT = 260;

/*
 * Hand-drawn SVG like the usage chart (docs/console.md#first-load says why there is no chart library):
 * one metric at a time, picked above the chart, one bar per period.
 */
export function StatisticsChart({ rows, format }: { rows: StatisticsRow[]; format: (metric: ChartMetric, value: number) => string }) {
  const { t } = useTranslation();
  const [metric, setMetric] = useState<ChartMetric>('revenue');
  const [box, width] = useBoxWidth(640);
  const plotWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const ticks = decimalTicks(Math.max(0, ...rows.map((r) => r[metric])));
  const top = ticks.at(-1) ?? 1;
  const y = (v: number) => MARGIN.top + plotHeight - (v / top) * plotHeight;
  const band = plotWidth / Math.max(1, rows.length);
  const barWidth = Math.min(40, band * 0.7);
  const every = labelEvery(rows.length, plotWidth, 56);
  // A day's label drops its year: the range picker above shows it.
  const label = (period: string) => (period.length === 10 ? period.slice(5) : period);

  return (
    <div className="statistics-chart" data-testid="statistics-chart">
      <Segmented<ChartMetric>
        value={metric}
        onChange={setMetric}
        options={(['revenue', 'orders', 'registrations'] as const).map((m) => ({ value: m, label: t(`statistics.figures.${m}`) }))}
        data-testid="statistics-chart-metric"
      />
      <div ref={box} className="statistics-chart__box">
        <svg width={width} height={HEIGHT} role="img" aria-label={t(`statistics.figures.${metric}`)}>
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={GRID} strokeDasharray={tick === 0 ? undefined : '3 3'} />
              <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={12} fill={AXIS_TEXT}>
                {format(metric, tick)}
              </text>
            </g>
          ))}
          {rows.map((row, i) => (
            <g key={row.period} className="statistics-chart__column">
              <title>{`${row.period}: ${format(metric, row[metric])}`}</title>
              <rect x={MARGIN.left + i * band} y={MARGIN.top} width={band} height={plotHeight} fill="transparent" />
              {row[metric] > 0 ? (
                <rect className="statistics-chart__bar" x={MARGIN.left + i * band + (band - barWidth) / 2} y={y(row[metric])} width={barWidth} height={y(0) - y(row[metric])} fill={COLORS[metric]} />
              ) : null}
              {i % every === 0 ? (
                <text x={MARGIN.left + (i + 0.5) * band} y={MARGIN.top + plotHeight + 16} textAnchor="middle" fontSize={12} fill={AXIS_TEXT}>
                  {label(row.period)}
                </text>
              ) : null}
            </g>
          ))}
        </svg>
      </div>
    </div>
  );
}
