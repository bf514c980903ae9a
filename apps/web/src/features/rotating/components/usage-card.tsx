import { ReloadOutlined } from '@ant-design/icons';
import { normalizeLang, type Lang } from '@resi/contract';
import { Button, Card, Col, Empty, Progress, Row, Segmented, Select, Space, Statistic } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { proxyAccountsKey, useProxyAccounts } from '@/api/get-proxy-accounts';
import { trafficKey, useTraffic } from '@/api/get-traffic';
import { formatBytes } from '@/lib/format';
import { QueryState } from '@/components/query-state';
import { USAGE_COLOR_DOWN, UsageChart } from '@/components/usage-chart';
import type { TrafficSummary } from '@/api/get-traffic';
import { countryLabel, seriesTotal, shareRows, usageQuery, USAGE_PERIODS, type ShareRow, type UsagePeriod } from '@/lib/usage-data';

/** Usage of the last 24 hours / 7 days / 30 days, optionally of one proxy account, with its breakdowns. */
export function UsageCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [period, setPeriod] = useState<UsagePeriod>('7d');
  const [accountId, setAccountId] = useState<number | undefined>(undefined);
  const queryClient = useQueryClient();
  const accounts = useProxyAccounts();
  const usage = useTraffic(usageQuery(period, accountId));
  // Balance, per-account usage and the chart all move with traffic: refresh them together.
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trafficKey });
    void queryClient.invalidateQueries({ queryKey: proxyAccountsKey });
  };

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('rotating.usage.title')}
      extra={
        <Space wrap>
          <Segmented<UsagePeriod> value={period} onChange={setPeriod} options={USAGE_PERIODS.map((p) => ({ value: p, label: t(`rotating.usage.period.${p}`) }))} data-testid="usage-period" />
          <Select<number>
            allowClear
            placeholder={t('rotating.usage.allAccounts')}
            value={accountId}
            onChange={(id) => setAccountId(id)}
            options={(accounts.data ?? []).map((a) => ({ value: a.id, label: a.username }))}
            className="filter-select"
            data-testid="usage-account"
          />
          <Button icon={<ReloadOutlined />} onClick={refresh} loading={usage.isFetching} data-testid="usage-refresh">
            {t('rotating.usage.refresh')}
          </Button>
        </Space>
      }
      data-testid="usage"
    >
      <QueryState query={usage} rows={6}>
        {(summary) => <UsageFigures usage={summary} period={period} lang={lang} />}
      </QueryState>
    </Card>
  );
}

function UsageFigures({ usage, period, lang }: { usage: TrafficSummary; period: UsagePeriod; lang: Lang }) {
  const { t } = useTranslation();
  const countries = shareRows(usage.byCountry.map((c) => ({ key: c.country ?? '-', label: countryLabel(c.country, lang, t('rotating.usage.anyCountry')), bytes: c.bytes })));
  const byAccount = shareRows(usage.byAccount.map((a) => ({ key: String(a.accountId), label: a.username, bytes: a.bytes })));
  return (
    <>
      <Statistic title={t(`rotating.usage.total.${period}`)} value={formatBytes(seriesTotal(usage.series), lang)} className="usage-total" data-testid="usage-total" />
      <UsageChart series={usage.series} />
      <Row gutter={[24, 16]} className="usage-breakdowns">
        <Col xs={24} md={12}>
          <Breakdown title={t('rotating.usage.byCountry')} rows={countries} lang={lang} empty={t('rotating.usage.empty')} testId="usage-by-country" />
        </Col>
        <Col xs={24} md={12}>
          <Breakdown title={t('rotating.usage.byAccount')} rows={byAccount} lang={lang} empty={t('rotating.usage.empty')} testId="usage-by-account" />
        </Col>
      </Row>
    </>
  );
}

function Breakdown({ title, rows, lang, empty, testId }: { title: string; rows: ShareRow[]; lang: Lang; empty: string; testId: string }) {
  return (
    <div className="usage-breakdown" data-testid={testId}>
      <div className="usage-breakdown__title">{title}</div>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
      ) : (
        rows.map((row) => (
          <div key={row.key} className="usage-breakdown__row">
            <div className="usage-breakdown__label">
              <span>{row.label}</span>
              <span className="muted">
                {formatBytes(row.bytes, lang)} · {row.percent}%
              </span>
            </div>
            <Progress percent={row.percent} showInfo={false} size="small" strokeColor={USAGE_COLOR_DOWN} />
          </div>
        ))
      )}
    </div>
  );
}
