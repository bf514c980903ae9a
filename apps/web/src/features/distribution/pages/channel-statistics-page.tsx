import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { CHANNEL_STATS_DEFAULT_DAYS, type ChannelStatsQuery, normalizeLang } from '@resi/contract';
import { Button, Card, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { formatCount, formatMoney } from '@/lib/format';
import { useExportChannelStats } from '../api/export-channel-stats';
import { useChannelStats } from '../api/get-channel-stats';
import { ChannelChart } from '../components/channel-chart';
import { ChannelFilters, type ChannelFilterValue } from '../components/channel-filters';
import type { ChannelMetric } from '../components/channel-funnel';
import { ChannelTable } from '../components/channel-table';
import { ChannelTotals } from '../components/channel-totals';

/** The server's default window: the last CHANNEL_STATS_DEFAULT_DAYS UTC days, today included. */
function defaultRange(): ChannelFilterValue['range'] {
  const today = dayjs(new Date().toISOString().slice(0, 10));
  return [today.subtract(CHANNEL_STATS_DEFAULT_DAYS - 1, 'day'), today];
}

/**
 * /distribution/channel: the funnel visit → registration → first payment of channel links, per day and
 * channel, with a CSV export. A distributor's own links only (the server scopes); an admin's are everyone's.
 */
export default function ChannelStatisticsPage() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [filters, setFilters] = useState<ChannelFilterValue>(() => ({ range: defaultRange() }));
  const query: ChannelStatsQuery = {
    from: filters.range[0].format('YYYY-MM-DD'),
    to: filters.range[1].format('YYYY-MM-DD'),
    channelKey: filters.channelKey,
    channelValue: filters.channelValue,
  };
  const stats = useChannelStats(query);
  const exporter = useExportChannelStats();

  return (
    <Space orientation="vertical" size={20} className="statistics-page" data-testid="channel-statistics">
      <Card variant="borderless" className="surface-card">
        <div className="table-toolbar">
          <ChannelFilters value={filters} onChange={(patch) => setFilters((f) => ({ ...f, ...patch }))} />
          <Space wrap>
            <Button icon={<ReloadOutlined />} onClick={() => void stats.refetch()} loading={stats.isFetching} data-testid="channel-refresh">
              {t('channels.refresh')}
            </Button>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              loading={exporter.isPending}
              disabled={!stats.data || stats.isError || stats.data.rows.length === 0}
              onClick={() => exporter.mutate(query)}
              data-testid="channel-export"
            >
              {t('channels.export')}
            </Button>
          </Space>
        </div>
      </Card>
      <QueryState query={stats} rows={8} errorTitle={t('channels.error')} errorTestId="channel-error">
        {(data) => {
          const format = (metric: ChannelMetric, v: number) => (metric === 'revenue' ? formatMoney(v, data.currency, lang) : formatCount(v, lang));
          return (
            <Space orientation="vertical" size={20} className="statistics-page">
              <Card variant="borderless" className="surface-card" title={t('channels.totalsTitle')}>
                <ChannelTotals stats={data} />
              </Card>
              <Card variant="borderless" className="surface-card" title={t('channels.chartTitle')}>
                <ChannelChart stats={data} format={format} />
              </Card>
              <Card variant="borderless" className="surface-card" title={t('channels.tableTitle')}>
                <Typography.Paragraph type="secondary">{t('channels.definitions')}</Typography.Paragraph>
                <ChannelTable stats={data} />
              </Card>
            </Space>
          );
        }}
      </QueryState>
    </Space>
  );
}
