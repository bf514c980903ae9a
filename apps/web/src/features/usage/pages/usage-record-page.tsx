import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { USAGE_RECORD_MAX_DAYS } from '@resi/contract';
import { Button, Card, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProxyAccounts } from '@/api/get-proxy-accounts';
import { useRegions } from '@/api/get-regions';
import { usePagedQuery } from '@/components/paged-table';
import { combineQueries, QueryError } from '@/components/query-state';
import { useExportUsageRecord } from '../api/export-usage-record';
import { usageRecordQueryOptions } from '../api/get-usage-record';
import { UsageRecordFilters, type UsageFilters } from '../components/usage-record-filters';
import { UsageRecordTable } from '../components/usage-record-table';
import { defaultUsageRange } from '../components/usage-record-values';
import { UsageTotals } from '../components/usage-totals';

/** /center/usageRecord: the customer's metered traffic by time, proxy account and country, with a CSV download. */
export default function UsageRecordPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<UsageFilters>(() => ({ range: defaultUsageRange(), granularity: 'day' }));
  const accounts = useProxyAccounts();
  const regions = useRegions();
  const exporter = useExportUsageRecord();

  const [from, to] = filters.range.map((d) => d.format('YYYY-MM-DD')) as [string, string];
  const selection = { granularity: filters.granularity, from, to, accountId: filters.accountId, country: filters.country };
  const paged = usePagedQuery(usageRecordQueryOptions, selection);
  const usage = paged.query;
  const choices = combineQueries([accounts, regions]);
  const countries = useMemo(() => [...new Set((regions.data ?? []).map((r) => r.country))], [regions.data]);

  const filter = (patch: Partial<UsageFilters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <Card variant="borderless" className="surface-card" data-testid="usage-record">
      <div className="table-toolbar">
        <UsageRecordFilters value={filters} onChange={filter} accounts={accounts.data ?? []} countries={countries} />
      </div>
      {choices.isError ? <QueryError query={choices} title={t('usage.filtersFailed')} /> : null}
      <div className="table-toolbar">
        <span className="muted usage-record-note">{t('usage.utcNote', { days: USAGE_RECORD_MAX_DAYS })}</span>
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void usage.refetch()} loading={usage.isFetching} data-testid="usage-record-refresh">
            {t('usage.refresh')}
          </Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={exporter.isPending}
            disabled={!usage.data?.total}
            onClick={() => exporter.mutate(selection)}
            data-testid="usage-record-export"
          >
            {t('usage.export')}
          </Button>
        </Space>
      </div>
      {/* Totals only from an answer: a pending request shows them still to come, a failed one none (the table says why). */}
      {usage.isError ? null : <UsageTotals totals={usage.data?.totals} />}
      <UsageRecordTable paged={paged} />
    </Card>
  );
}
