import { normalizeLang } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { ChartLegend } from './chart-legend';
import type { TrafficSummary } from '@/api/get-traffic';
import { formatBytes } from '@/lib/format';
import { useBoxWidth } from '@/hooks/use-box-width';
import { chartPoints } from '@/lib/usage-data';
import { byteTicks, labelEvery } from './usage-chart-scale';

/*
 * Drawn by hand in SVG: one stacked bar chart of at most 30 buckets needs a scale, an axis and rectangles,
 * not a charting library (recharts was the largest chunk of the console, 90 kB compressed, for this one chart).
 */
export const USAGE_COLOR_DOWN = '#1d4ed8';
const COLOR_UP = '#93c5fd';
const GRID = '#e8ecf3';
const AXIS_TEXT = '#6b7280';
const MARGIN = { top: 8, right: 8, bottom: 24, left: 72 };
/** Until the box is measured (and where nothing measures, as in tests). */
const DEFAULT_WIDTH = 640;

/** Bytes down and up per bucket of a usage series, stacked (Rotating Residential and Account Home). */
export function UsageChart({ series, height = 280 }: { series: TrafficSummary['series']; height?: number }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [box, measured] = useBoxWidth(DEFAULT_WIDTH);

  const points = chartPoints(series);
  const legendHeight = 28;
  const plotWidth = Math.max(1, measured - MARGIN.left - MARGIN.right);
  const plotHeight = Math.max(1, height - legendHeight - MARGIN.top - MARGIN.bottom);
  const ticks = byteTicks(Math.max(0, ...points.map((p) => p.down + p.up)));
  const top = ticks.at(-1) ?? 1;
  const y = (bytes: number) => MARGIN.top + plotHeight - (bytes / top) * plotHeight;
  const band = plotWidth / Math.max(1, points.length);
  const barWidth = Math.min(48, band * 0.7);
  const every = labelEvery(points.length, plotWidth);
  const bytes = (value: number) => formatBytes(value, lang);

  return (
    <div className="usage-chart" data-testid="usage-chart" ref={box} style={{ height }}>
      <svg width={measured} height={height - legendHeight} className="usage-chart__svg">
        {ticks.map((tick) => (
          <g key={tick} className="usage-chart__tick">
            <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={GRID} strokeDasharray={tick === 0 ? undefined : '3 3'} />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={12} fill={AXIS_TEXT}>
              {bytes(tick)}
            </text>
          </g>
        ))}
        {points.map((point, i) => {
          const x = MARGIN.left + i * band + (band - barWidth) / 2;
          return (
            <g key={point.bucket} className="usage-chart__column">
              <title>{`${point.bucket}\n${t('rotating.usage.down')}: ${bytes(point.down)}\n${t('rotating.usage.up')}: ${bytes(point.up)}`}</title>
              {/* The whole column answers the pointer, so the numbers of a short bar are easy to reach. */}
              <rect x={MARGIN.left + i * band} y={MARGIN.top} width={band} height={plotHeight} fill="transparent" />
              {point.down > 0 ? (
                <rect className="usage-chart__bar usage-chart__bar--down" x={x} y={y(point.down)} width={barWidth} height={y(0) - y(point.down)} fill={USAGE_COLOR_DOWN} />
              ) : null}
              {point.up > 0 ? (
                <rect className="usage-chart__bar usage-chart__bar--up" x={x} y={y(point.down + point.up)} width={barWidth} height={y(point.down) - y(point.down + point.up)} fill={COLOR_UP} />
              ) : null}
              {i % every === 0 ? (
                <text x={MARGIN.left + (i + 0.5) * band} y={MARGIN.top + plotHeight + 16} textAnchor="middle" fontSize={12} fill={AXIS_TEXT} className="usage-chart__label">
                  {point.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <ChartLegend items={[{ color: USAGE_COLOR_DOWN, label: t('rotating.usage.down') }, { color: COLOR_UP, label: t('rotating.usage.up') }]} />
    </div>
  );
}
