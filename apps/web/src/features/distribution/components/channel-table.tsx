import { type ChannelStats, type ChannelStatsRow, normalizeLang } from '@resi/contract';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount, formatMoney } from '@/lib/format';

const rowKey = (r: ChannelStatsRow) => `${r.channelKey}-${r.channelValue}-${r.day}`;

/** The rows as the server sent them (day, then channel), paged in the browser; it scrolls inside its card on phones. */
export function ChannelTable({ stats }: { stats: ChannelStats }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const number = (v: number) => formatCount(v, lang);
  return (
    <Table<ChannelStatsRow>
      dataSource={stats.rows}
      rowKey={rowKey}
      size="middle"
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true, hideOnSinglePage: true, showTotal: (total) => t('commerce.total', { total }) }}
      locale={{ emptyText: t('channels.empty') }}
      onRow={(r) => ({ 'data-testid': `channel-row-${rowKey(r)}` }) as never}
      data-testid="channel-table"
      columns={[
        { title: t('channels.columns.day'), dataIndex: 'day', className: 'nowrap' },
        { title: t('channels.columns.channel'), key: 'channel', render: (_v, r) => <span className="mono">{`${r.channelKey}=${r.channelValue}`}</span> },
        { title: t('channels.figures.visits'), key: 'visits', align: 'right', render: (_v, r) => number(r.visits) },
        { title: t('channels.figures.registrations'), key: 'registrations', align: 'right', render: (_v, r) => number(r.registrations) },
        { title: t('channels.figures.payingUsers'), key: 'payingUsers', align: 'right', render: (_v, r) => number(r.payingUsers) },
        { title: t('channels.figures.orders'), key: 'orders', align: 'right', render: (_v, r) => number(r.orders) },
        { title: t('channels.figures.revenue'), key: 'revenue', align: 'right', className: 'nowrap', render: (_v, r) => formatMoney(r.revenue, stats.currency, lang) },
      ]}
    />
  );
}
