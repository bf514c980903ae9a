import type { StatisticsRow } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { PeriodBarChart } from '@/components/period-bar-chart';

export type ChartMetric = 'revenue' | 'orders' | 'registrations';

const COLORS: Record<ChartMetric, string> = { revenue: '#1d4ed8', orders: '#0f766e', registrations: '#b45309' };

/** Revenue, orders or registrations per period, one at a time. */
export function StatisticsChart({ rows, format }: { rows: StatisticsRow[]; format: (metric: ChartMetric, value: number) => string }) {
  const { t } = useTranslation();
  const metrics = (['revenue', 'orders', 'registrations'] as const).map((key) => ({ key, label: t(`statistics.figures.${key}`), color: COLORS[key] }));
  return <PeriodBarChart rows={rows} metrics={metrics} format={format} testId="statistics-chart" />;
}
