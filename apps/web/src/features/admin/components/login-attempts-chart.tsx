import type { LoginSummaryDto } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { ChartLegend } from '@/components/chart-legend';
import { useBoxWidth } from '@/hooks/use-box-width';
import { countTicks, dayLabelEvery } from './login-attempts-chart-scale';

/*
 * Drawn by hand in SVG like the usage chart (components/usage-chart.tsx), whose classes it shares: a bar per
 * day needs a scale, an axis and rectangles, not a charting library.
 */
const COLOR_OK = '#93c5fd';
const COLOR_FAILED = '#dc2626';
const GRID = '#e8ecf3';
const AXIS_TEXT = '#6b7280';
const MARGIN = { top: 8, right: 8, bottom: 24, left: 48 };
const DEFAULT_WIDTH = 640;
const LEGEND = 28;
/** The chart's box, legend included (its loading placeholder takes the same). */
export const LOGIN_CHART_HEIGHT = 260;

/** Sign-in attempts per day, the failed part stacked on the successful one. */
export function LoginAttemptsChart({ days, height = LOGIN_CHART_HEIGHT }: { days: LoginSummaryDto['days']; height?: number }) {
  const { t } = useTranslation();
  const [box, width] = useBoxWidth(DEFAULT_WIDTH);
  const plotWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const plotHeight = Math.max(1, height - LEGEND - MARGIN.top - MARGIN.bottom);
  const ticks = countTicks(Math.max(0, ...days.map((d) => d.attempts)));
  const top = ticks.at(-1) ?? 1;
  const y = (n: number) => MARGIN.top + plotHeight - (n / top) * plotHeight;
  const band = plotWidth / Math.max(1, days.length);
  const barWidth = Math.min(32, band * 0.7);
  const every = dayLabelEvery(days.length, plotWidth);

  return (
    <div className="usage-chart" data-testid="login-chart" ref={box} style={{ height }}>
      <svg width={width} height={height - LEGEND} className="usage-chart__svg" role="img" aria-label={t('logins.chart.title')}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke={GRID} strokeDasharray={tick === 0 ? undefined : '3 3'} />
            <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={12} fill={AXIS_TEXT}>
              {tick}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          const x = MARGIN.left + i * band + (band - barWidth) / 2;
          const ok = day.attempts - day.failures;
          return (
            <g key={day.date} className="usage-chart__column" data-testid={`login-chart-day-${day.date}`}>
              <title>{`${day.date}\n${t('logins.chart.attempts')}: ${day.attempts}\n${t('logins.chart.failures')}: ${day.failures}`}</title>
              <rect x={MARGIN.left + i * band} y={MARGIN.top} width={band} height={plotHeight} fill="transparent" />
              {ok > 0 ? <rect x={x} y={y(ok)} width={barWidth} height={y(0) - y(ok)} fill={COLOR_OK} /> : null}
              {day.failures > 0 ? <rect x={x} y={y(day.attempts)} width={barWidth} height={y(ok) - y(day.attempts)} fill={COLOR_FAILED} /> : null}
              {i % every === 0 ? (
                <text x={MARGIN.left + (i + 0.5) * band} y={MARGIN.top + plotHeight + 16} textAnchor="middle" fontSize={12} fill={AXIS_TEXT}>
                  {day.date.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <ChartLegend items={[{ color: COLOR_OK, label: t('logins.chart.successes') }, { color: COLOR_FAILED, label: t('logins.chart.failures') }]} />
    </div>
  );
}
