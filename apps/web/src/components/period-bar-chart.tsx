import { Segmented } from 'antd';
import { useState } from 'react';
import { labelEvery } from './usage-chart-scale';
import { useBoxWidth } from '@/hooks/use-box-width';
import { decimalTicks } from './chart-ticks';

const GRID = '#e8ecf3';
const AXIS_TEXT = '#6b7280';
const MARGIN = { top: 8, right: 8, bottom: 24, left: 72 };
const HEIGHT = 260;

export interface BarChartMetric<M extends string> {
  key: M;
  label: string;
  color: string;
}

interface PeriodBarChartProps<M extends string> {
  rows: ({ period: string } & Record<M, number>)[];
  metrics: BarChartMetric<M>[];
  format: (metric: M, value: number) => string;
  testId: string;
}

/*
 * Hand-drawn SVG like the usage chart (docs/console.md#first-load says why there is no chart library):
 * one metric at a time, picked above the chart, one bar per period. Statistics and Channel Statistics draw with it.
 */
export function PeriodBarChart<M extends string>({ rows, metrics, format, testId }: PeriodBarChartProps<M>) {
  const [metric, setMetric] = useState<M>(metrics[0]!.key);
  const [box, width] = useBoxWidth(640);
  const current = metrics.find((m) => m.key === metric) ?? metrics[0]!;
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
    <div className="bar-chart" data-testid={testId}>
      <Segmented<M> value={metric} onChange={setMetric} options={metrics.map((m) => ({ value: m.key, label: m.label }))} data-testid={`${testId}-metric`} />
      <div ref={box} className="bar-chart__box">
        <svg width={width} height={HEIGHT} role="img" aria-label={current.label}>
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={GRID} strokeDasharray={tick === 0 ? undefined : '3 3'} />
              <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={12} fill={AXIS_TEXT}>
                {format(metric, tick)}
              </text>
            </g>
          ))}
          {rows.map((row, i) => (
            <g key={row.period} className="bar-chart__column">
              <title>{`${row.period}: ${format(metric, row[metric])}`}</title>
              <rect x={MARGIN.left + i * band} y={MARGIN.top} width={band} height={plotHeight} fill="transparent" />
              {row[metric] > 0 ? (
                <rect className="bar-chart__bar" x={MARGIN.left + i * band + (band - barWidth) / 2} y={y(row[metric])} width={barWidth} height={y(0) - y(row[metric])} fill={current.color} />
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
