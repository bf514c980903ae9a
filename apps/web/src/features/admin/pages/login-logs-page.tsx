import type { LoginLogDto, LoginSummaryDto } from '@resi/contract';
import { Card, Flex, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { useExportLoginLogs } from '../api/export-login-logs';
import { type LoginLogFilters, loginLogsQueryOptions } from '../api/get-login-logs';
import { LoginLogFilterBar, type LoginFilterValues, loginLogFilters } from '../components/login-log-filters';
import { LoginResultTag } from '../components/login-result-tag';
import { LoginSummary } from '../components/login-summary';

/** /manage/log: every sign-in attempt, filtered, with a summary of the same attempts and a CSV export. */
export default function LoginLogsPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginFilterValues>();
  const [filters, setFilters] = useState<LoginLogFilters>({});
  const paged = usePagedQuery(loginLogsQueryOptions, filters);
  const exporter = useExportLoginLogs();

  const apply = (values: LoginFilterValues) => setFilters(loginLogFilters(values));
  const pick = (values: Partial<LoginFilterValues>) => {
    form.setFieldsValue(values);
    apply(form.getFieldsValue());
  };

  // Drawn the same loading (no summary yet: cards in their final shape) and loaded.
  const summary = (loaded: LoginSummaryDto | undefined) => <LoginSummary summary={loaded} onPickIp={(ip) => pick({ ip })} onPickAccount={(email) => pick({ email })} />;
  return (
    <Flex vertical gap={16} data-testid="login-analysis">
      {/* The form's own bottom margin already spaces it from the card's edge. */}
      <Card variant="borderless" className="surface-card" styles={{ body: { paddingBottom: 8 } }}>
        <LoginLogFilterBar form={form} onApply={apply} onExport={() => exporter.mutate(filters)} exporting={exporter.isPending} />
      </Card>
      <QueryState query={paged.query} placeholder={summary(undefined)} errorTitle={t('logins.loadFailed')} errorTestId="logins-summary-error">
        {(data) => summary(data.summary)}
      </QueryState>
      <Card variant="borderless" className="surface-card" title={t('logins.list')}>
        <PagedTable<LoginLogDto>
          paged={paged}
          rowKey="id"
          emptyText={t('logins.empty')}
          errorTitle={t('logins.loadFailed')}
          data-testid="login-table"
          // Four columns, not six, so the list fits a laptop's width: the user found under the account typed,
          // the browser under the address.
          columns={[
            { title: t('logins.columns.at'), render: (_, r) => formatDateTime(r.at) },
            { title: t('logins.columns.result'), render: (_, r) => <LoginResultTag result={r.result} /> },
            {
              title: t('logins.columns.accountAndUser'),
              render: (_, r) => (
                <span className="cell-user">
                  <span>{r.account}</span>
                  <span className="muted">{r.userId === null ? t('logins.noUser') : `${r.email} · ID ${r.userId}`}</span>
                </span>
              ),
            },
            {
              title: t('logins.columns.ipAndAgent'),
              render: (_, r) => (
                <span className="cell-user">
                  <span className="mono">{r.ip ?? t('logins.noIp')}</span>
                  <Typography.Text type="secondary" ellipsis={{ tooltip: r.userAgent }} className="muted" style={{ maxWidth: 260 }}>
                    {r.userAgent ?? '—'}
                  </Typography.Text>
                </span>
              ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
