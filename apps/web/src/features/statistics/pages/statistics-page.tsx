import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Button, Card, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { StatisticsSummaryCards } from '@/components/statistics-summary';
import { formatCount, formatMoney } from '@/lib/format';
import { useExportStatistics } from '../api/export-statistics';
import { type StatisticsFilters as Query, useStatistics } from '../api/get-statistics';
import { type ChartMetric, StatisticsChart } from '../components/statistics-chart';
import { StatisticsFilters, type StatisticsFilterValue } from '../components/statistics-filters';
import { MarginTable } from '../components/margin-table';
import { Breakdowns, PeriodTable } from '../components/statistics-tables';

/** The last 30 UTC days, today included. */
function defaultRange(): StatisticsFilterValue['range'] {
  const today = dayjs(new Date().toISOString().slice(0, 10));
  return [today.subtract(29, 'day'), today];
}

/** /manage/statistics: the admin's figures per period, the summary, breakdowns, top users and margin, with a CSV export. */
export default function StatisticsPage() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [filters, setFilters] = useState<StatisticsFilterValue>(() => ({ range: defaultRange(), groupBy: 'day' }));
  const query: Query = { from: filters.range[0].format('YYYY-MM-DD'), to: filters.range[1].format('YYYY-MM-DD'), groupBy: filters.groupBy };
  const report = useStatistics(query);
  const exporter = useExportStatistics();

  return (
    <Space direction="vertical" size={20} className="statistics-page" data-testid="statistics">
      <Card variant="borderless" className="surface-card">
        <div className="table-toolbar">
          <StatisticsFilters value={filters} onChange={(patch) => setFilters((f) => ({ ...f, ...patch }))} />
          <Space wrap>
            <Button icon={<ReloadOutlined />} onClick={() => void report.refetch()} loading={report.isFetching} data-testid="statistics-refresh">
              {t('statistics.refresh')}
            </Button>
            <Button type="primary" icon={<DownloadOutlined />} loading={exporter.isPending} disabled={!report.data || report.isError} onClick={() => exporter.mutate(query)} data-testid="statistics-export">
              {t('statistics.export')}
            </Button>
          </Space>
        </div>
      </Card>
      <QueryState query={report} rows={8} errorTitle={t('statistics.error')} errorTestId="statistics-error">
        {(data) => {
          const format = (metric: ChartMetric, v: number) => (metric === 'revenue' ? formatMoney(v, data.currency, lang) : formatCount(v, lang));
          return (
            <Space direction="vertical" size={20} className="statistics-page">
              <Card variant="borderless" className="surface-card" title={t('statistics.summary.title')}>
                <StatisticsSummaryCards summary={data.summary} currency={data.currency} />
              </Card>
              <Card variant="borderless" className="surface-card" title={t('statistics.chartTitle')}>
                <StatisticsChart rows={data.rows} format={format} />
              </Card>
              <Card variant="borderless" className="surface-card" title={t('statistics.periodsTitle')}>
                <Typography.Paragraph type="secondary">{t('statistics.definitions')}</Typography.Paragraph>
                <PeriodTable report={data} />
              </Card>
              <Card variant="borderless" className="surface-card">
                <Breakdowns report={data} />
              </Card>
              <Card variant="borderless" className="surface-card" title={t('statistics.margin.title')}>
                <Typography.Paragraph type="secondary">{t('statistics.margin.definitions')}</Typography.Paragraph>
                <MarginTable margin={data.margin} currency={data.currency} />
              </Card>
            </Space>
          );
        }}
      </QueryState>
    </Space>
  );
}
