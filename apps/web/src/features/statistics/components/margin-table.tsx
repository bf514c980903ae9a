import { normalizeLang, type MarginRow, type StatisticsDto } from '@resi/contract';
import { Empty, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName, formatBytes, formatMoney } from '@/lib/format';

type Margin = StatisticsDto['margin'];
type Figures = Margin['totals'];

/** An amount over its value per GB (nothing under it without bytes); a loss in red. */
function MoneyCell({ amount, perGb, money, loss = false, testId }: { amount: number; perGb: number | null; money: (v: number) => string; loss?: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="cell-user cell-user--end" data-testid={testId}>
      <Typography.Text className="nowrap" type={loss && amount < 0 ? 'danger' : undefined}>
        {money(amount)}
      </Typography.Text>
      {perGb !== null ? <span className="muted nowrap">{t('statistics.margin.perGb', { amount: money(perGb) })}</span> : null}
    </div>
  );
}

/**
 * Margin per period × product × region × provider (docs/business-rules.md#margin): the bytes carried, what
 * customers paid for them, what the upstream charged, and the difference, each also per GB; totals on top.
 */
export function MarginTable({ margin, currency }: { margin: Margin; currency: string }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const money = (v: number) => formatMoney(v, currency, lang);
  /** The four figures of a row or of the totals, in the columns' order. */
  const figures = (f: Figures, testId?: (name: string) => string): ReactNode[] => [
    <span key="bytes" className="nowrap" data-testid={testId?.('bytes')}>
      {formatBytes(f.bytes, lang)}
    </span>,
    <MoneyCell key="revenue" amount={f.revenue} perGb={f.revenuePerGb} money={money} testId={testId?.('revenue')} />,
    <MoneyCell key="cost" amount={f.cost} perGb={f.costPerGb} money={money} testId={testId?.('cost')} />,
    <MoneyCell key="margin" amount={f.margin} perGb={f.marginPerGb} money={money} loss testId={testId?.('margin')} />,
  ];
  const figure = (index: number) => (_v: unknown, row: MarginRow) => figures(row)[index];
  const columns: ColumnsType<MarginRow> = [
    { key: 'period', title: t('statistics.columns.period'), dataIndex: 'period', className: 'nowrap' },
    { key: 'kind', title: t('statistics.margin.columns.kind'), dataIndex: 'kind', render: (kind: MarginRow['kind']) => t(`statistics.margin.kind.${kind}`) },
    {
      key: 'region',
      title: t('statistics.margin.columns.region'),
      dataIndex: 'region',
      render: (region: string | null) => (region ? `${countryName(region, lang)} (${region})` : t('statistics.margin.anyRegion')),
    },
    { key: 'provider', title: t('statistics.margin.columns.provider'), dataIndex: 'providerName', render: (name: string | null) => name ?? '—' },
    { key: 'bytes', title: t('statistics.figures.trafficBytes'), align: 'right', render: figure(0) },
    { key: 'revenue', title: t('statistics.figures.revenue'), align: 'right', render: figure(1) },
    { key: 'cost', title: t('statistics.margin.columns.cost'), align: 'right', render: figure(2) },
    { key: 'margin', title: t('statistics.margin.columns.margin'), align: 'right', render: figure(3) },
  ];
  // Newest period first, as the figures per period.
  const rows = [...margin.rows].sort((a, b) => (a.period < b.period ? 1 : a.period > b.period ? -1 : 0));
  return (
    <div data-testid="statistics-margin">
      <Table<MarginRow>
        size="small"
        rowKey={(r) => `${r.period}|${r.kind}|${r.region ?? ''}|${r.providerId ?? ''}`}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('statistics.empty')} /> }}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        summary={() =>
          rows.length === 0 ? null : (
            <Table.Summary fixed="top">
              <Table.Summary.Row className="statistics-totals" data-testid="statistics-margin-totals">
                <Table.Summary.Cell index={0} colSpan={4}>
                  <strong>{t('statistics.columns.total')}</strong>
                </Table.Summary.Cell>
                {figures(margin.totals, (name) => `statistics-margin-total-${name}`).map((cell, i) => (
                  <Table.Summary.Cell key={i} index={i + 4} align="right">
                    <strong>{cell}</strong>
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            </Table.Summary>
          )
        }
      />
    </div>
  );
}
