import { normalizeLang, type PayMethod, type StatisticsDto } from '@resi/contract';
import { Col, Empty, Row, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PayMethodLabel } from '@/components/pay-method-label';
import { countryName, formatBytes, formatCount, formatMoney } from '@/lib/format';

type Report = StatisticsDto;

function useFormats(currency: string) {
  const { i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return {
    lang,
    money: (v: number) => formatMoney(v, currency, lang),
    count: (v: number) => formatCount(v, lang),
    bytes: (v: number) => formatBytes(v, lang),
  };
}

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <div className="statistics-section" data-testid={testId}>
      <Typography.Title level={5}>{title}</Typography.Title>
      {children}
    </div>
  );
}

const tableProps = { size: 'small' as const, pagination: false as const, scroll: { x: 'max-content' as const } };

/**
 * The breakdowns sit three abreast: their columns take auto widths and a long address wraps, so the figures
 * beside it stay in view at a laptop's width (max-content, or an address cut short, pushed them off its edge).
 */
const breakdownProps = { ...tableProps, scroll: { x: true as const } };
const wrapping = (text: string) => <span className="cell-user">{text}</span>;

/** One row per period and the totals under them. */
export function PeriodTable({ report }: { report: Report }) {
  const { t } = useTranslation();
  const f = useFormats(report.currency);
  const columns: ColumnsType<Report['rows'][number]> = [
    { key: 'period', title: t('statistics.columns.period'), dataIndex: 'period', fixed: 'left' },
    { key: 'registrations', title: t('statistics.figures.registrations'), dataIndex: 'registrations', align: 'right', render: f.count },
    { key: 'payingUsers', title: t('statistics.figures.payingUsers'), dataIndex: 'payingUsers', align: 'right', render: f.count },
    { key: 'newPayingUsers', title: t('statistics.figures.newPayingUsers'), dataIndex: 'newPayingUsers', align: 'right', render: f.count },
    { key: 'orders', title: t('statistics.figures.orders'), dataIndex: 'orders', align: 'right', render: f.count },
    { key: 'revenue', title: t('statistics.figures.revenue'), dataIndex: 'revenue', align: 'right', render: f.money },
    { key: 'refunds', title: t('statistics.figures.refunds'), dataIndex: 'refunds', align: 'right', render: f.money },
    { key: 'commission', title: t('statistics.figures.commission'), dataIndex: 'commission', align: 'right', render: f.money },
    { key: 'trafficBytes', title: t('statistics.figures.trafficBytes'), dataIndex: 'trafficBytes', align: 'right', render: f.bytes },
  ];
  const totals = report.totals;
  return (
    <div data-testid="statistics-periods">
    <Table
      {...tableProps}
      rowKey="period"
      columns={columns}
      dataSource={[...report.rows].reverse()}
      pagination={{ pageSize: 31, hideOnSinglePage: true, showSizeChanger: false }}
      summary={() => (
        <Table.Summary fixed="top">
          <Table.Summary.Row className="statistics-totals" data-testid="statistics-totals">
            <Table.Summary.Cell index={0}>
              <strong>{t('statistics.columns.total')}</strong>
            </Table.Summary.Cell>
            {[f.count(totals.registrations), f.count(totals.payingUsers), f.count(totals.newPayingUsers), f.count(totals.orders), f.money(totals.revenue), f.money(totals.refunds), f.money(totals.commission), f.bytes(totals.trafficBytes)].map((text, i) => (
              <Table.Summary.Cell key={i} index={i + 1} align="right">
                <strong data-testid={`statistics-total-${columns[i + 1]!.key as string}`}>{text}</strong>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
    </div>
  );
}

/** By payment method, by kind, traffic by country, and the top users by spend and by traffic. */
export function Breakdowns({ report }: { report: Report }) {
  const { t } = useTranslation();
  const f = useFormats(report.currency);
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('statistics.empty')} />;
  const money = [
    { key: 'orders', title: t('statistics.figures.orders'), dataIndex: 'orders', align: 'right' as const, render: f.count },
    { key: 'revenue', title: t('statistics.figures.revenue'), dataIndex: 'revenue', align: 'right' as const, render: f.money },
    { key: 'refunds', title: t('statistics.figures.refunds'), dataIndex: 'refunds', align: 'right' as const, render: f.money },
  ];
  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} xl={12}>
        <Section title={t('statistics.breakdowns.payMethod')} testId="statistics-by-method">
          <Table
            {...breakdownProps}
            rowKey={(r) => r.payMethod ?? ''}
            locale={{ emptyText: empty }}
            dataSource={report.byPayMethod}
            columns={[
              { key: 'method', title: t('statistics.columns.payMethod'), render: (_, r) => (r.payMethod ? <PayMethodLabel method={r.payMethod as PayMethod} /> : t('statistics.noMethod')) },
              ...money,
            ]}
          />
        </Section>
      </Col>
      <Col xs={24} xl={12}>
        <Section title={t('statistics.breakdowns.kind')} testId="statistics-by-kind">
          <Table {...breakdownProps} rowKey="kind" dataSource={report.byKind} columns={[{ key: 'kind', title: t('statistics.columns.kind'), render: (_, r) => t(`commerce.orderKind.${r.kind}`) }, ...money]} />
        </Section>
      </Col>
      <Col xs={24} xl={8}>
        <Section title={t('statistics.breakdowns.country')} testId="statistics-by-country">
          <Table
            {...breakdownProps}
            rowKey={(r) => r.country ?? ''}
            locale={{ emptyText: empty }}
            dataSource={report.trafficByCountry}
            columns={[
              { key: 'country', title: t('statistics.columns.country'), render: (_, r) => (r.country ? `${countryName(r.country, f.lang)} (${r.country})` : t('statistics.anyCountry')) },
              { key: 'bytes', title: t('statistics.figures.trafficBytes'), dataIndex: 'bytes', align: 'right', render: f.bytes },
            ]}
          />
        </Section>
      </Col>
      <Col xs={24} xl={8}>
        <Section title={t('statistics.breakdowns.topSpend')} testId="statistics-top-spend">
          <Table
            {...breakdownProps}
            rowKey="userId"
            locale={{ emptyText: empty }}
            dataSource={report.topBySpend}
            columns={[
              { key: 'email', title: t('statistics.columns.user'), dataIndex: 'email', render: wrapping },
              { key: 'orders', title: t('statistics.figures.orders'), dataIndex: 'orders', align: 'right', render: f.count },
              { key: 'revenue', title: t('statistics.columns.spend'), dataIndex: 'revenue', align: 'right', render: f.money },
            ]}
          />
        </Section>
      </Col>
      <Col xs={24} xl={8}>
        <Section title={t('statistics.breakdowns.topTraffic')} testId="statistics-top-traffic">
          <Table
            {...breakdownProps}
            rowKey="userId"
            locale={{ emptyText: empty }}
            dataSource={report.topByTraffic}
            columns={[
              { key: 'email', title: t('statistics.columns.user'), dataIndex: 'email', render: wrapping },
              { key: 'bytes', title: t('statistics.figures.trafficBytes'), dataIndex: 'bytes', align: 'right', render: f.bytes },
            ]}
          />
        </Section>
      </Col>
    </Row>
  );
}
