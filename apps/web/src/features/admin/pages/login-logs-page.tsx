import type { LoginLogDto } from '@resi/contract';
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

  return (
    <Flex vertical gap={16} data-testid="login-analysis">
      {/* The form's own bottom margin already spaces it from the card's edge. */}
      <Card variant="borderless" className="surface-card" styles={{ body: { paddingBottom: 8 } }}>
        <LoginLogFilterBar form={form} onApply={apply} onExport={() => exporter.mutate(filters)} exporting={exporter.isPending} />
      </Card>
      <QueryState query={paged.query} rows={6} errorTitle={t('logins.loadFailed')} errorTestId="logins-summary-error">
        {(data) => <LoginSummary summary={data.summary} onPickIp={(ip) => pick({ ip })} onPickAccount={(email) => pick({ email })} />}
      </QueryState>
      <Card variant="borderless" className="surface-card" title={t('logins.list')}>
        <PagedTable<LoginLogDto>
          paged={paged}
          rowKey="id"
          emptyText={t('logins.empty')}
          errorTitle={t('logins.loadFailed')}
          data-testid="login-table"
          columns={[
            { title: t('logins.columns.at'), render: (_, r) => formatDateTime(r.at) },
            { title: t('logins.columns.result'), render: (_, r) => <LoginResultTag result={r.result} /> },
            { title: t('logins.columns.account'), dataIndex: 'account' },
            {
              title: t('logins.columns.user'),
              render: (_, r) =>
                r.userId === null ? (
                  <Typography.Text type="secondary">{t('logins.noUser')}</Typography.Text>
                ) : (
                  <span className="cell-user">
                    <span>{r.email}</span>
                    <span className="muted">ID {r.userId}</span>
                  </span>
                ),
            },
            { title: t('logins.columns.ip'), render: (_, r) => <span className="mono">{r.ip ?? t('logins.noIp')}</span> },
            {
              title: t('logins.columns.userAgent'),
              render: (_, r) => (
                <Typography.Text type="secondary" ellipsis={{ tooltip: r.userAgent }} style={{ maxWidth: 260 }}>
                  {r.userAgent ?? '—'}
                </Typography.Text>
              ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
