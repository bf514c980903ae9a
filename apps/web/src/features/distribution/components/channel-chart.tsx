import type { ChannelStats } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { PeriodBarChart } from '@/components/period-bar-chart';
import { type ChannelMetric, dailyTotals } from './channel-funnel';

const COLORS: Record<ChannelMetric, string> = { visits: '#6d28d9', registrations: '#b45309', payingUsers: '#15803d', orders: '#0f766e', revenue: '#1d4ed8' };

/** One figure per UTC day of the window, every channel shown summed; one figure at a time. */
export function ChannelChart({ stats, format }: { stats: ChannelStats; format: (metric: ChannelMetric, value: number) => string }) {
  const { t } = useTranslation();
  const metrics = (['visits', 'registrations', 'payingUsers', 'orders', 'revenue'] as const).map((key) => ({ key, label: t(`channels.figures.${key}`), color: COLORS[key] }));
  return <PeriodBarChart rows={dailyTotals(stats)} metrics={metrics} format={format} testId="channel-chart" />;
}
