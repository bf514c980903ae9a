import { normalizeLang } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TrafficSummary } from '@/api/get-traffic';
import { formatBytes } from '@/lib/format';
import { chartPoints } from '@/lib/usage-data';

export const USAGE_COLOR_DOWN = '#1d4ed8';
const COLOR_UP = '#93c5fd';

/** Bytes down and up per bucket of a usage series, stacked (Rotating Residential and Account Home). */
export function UsageChart({ series, height = 280 }: { series: TrafficSummary['series']; height?: number }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const bytes = (value: unknown) => formatBytes(Number(value) || 0, lang);
  return (
    <div className="usage-chart" data-testid="usage-chart">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={chartPoints(series)} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e8ecf3" />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={12} />
          <YAxis tickFormatter={bytes} tick={{ fontSize: 12 }} width={72} />
          {/* Sorted by series key, not recharts' default of the translated name, which put "上传" before "下载". */}
          <Tooltip formatter={(value) => bytes(value)} labelFormatter={(_l, items) => String(items?.[0]?.payload?.bucket ?? '')} itemSorter="dataKey" />
          <Legend itemSorter="dataKey" />
          <Bar dataKey="down" name={t('rotating.usage.down')} stackId="bytes" fill={USAGE_COLOR_DOWN} isAnimationActive={false} />
          <Bar dataKey="up" name={t('rotating.usage.up')} stackId="bytes" fill={COLOR_UP} isAnimationActive={false} radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
