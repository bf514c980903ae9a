import type { LoginSummaryDto } from '@resi/contract';
import { Button, Card, Col, Row, Skeleton, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { tableEmptyText } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { LOGIN_CHART_HEIGHT, LoginAttemptsChart } from './login-attempts-chart';

type FailingIp = LoginSummaryDto['topFailingIps'][number];
type SpreadAccount = LoginSummaryDto['spreadAccounts'][number];

/**
 * The summary of the filtered attempts: per day, the IPs failing most, the accounts failed from many IPs. A click on an IP or account filters the list by it.
 * Without `summary` (still loading) the cards stand in their final shape, the chart's box as a placeholder of
 * its height, so that the list below does not move when it comes (docs/console.md#loading-empty-and-error).
 */
export function LoginSummary({ summary, onPickIp, onPickAccount }: { summary?: LoginSummaryDto; onPickIp: (ip: string) => void; onPickAccount: (account: string) => void }) {
  const { t } = useTranslation();
  const days = summary?.days ?? [];
  const attempts = days.reduce((n, d) => n + d.attempts, 0);
  const failures = days.reduce((n, d) => n + d.failures, 0);
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card
          variant="borderless"
          className="surface-card"
          title={t('logins.chart.title')}
          extra={summary ? <span className="muted" data-testid="login-totals">{t('logins.chart.totals', { from: summary.from, to: summary.to, attempts, failures })}</span> : null}
          aria-busy={!summary}
        >
          {summary ? (
            <LoginAttemptsChart days={summary.days} />
          ) : (
            <div style={{ height: LOGIN_CHART_HEIGHT }}>
              <Skeleton active title={false} paragraph={{ rows: 6 }} />
            </div>
          )}
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card variant="borderless" className="surface-card" title={t('logins.topIps.title')} data-testid="top-failing-ips">
          <Table<FailingIp>
            size="small"
            rowKey={(r) => r.ip ?? ''}
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={summary?.topFailingIps ?? []}
            locale={{ emptyText: tableEmptyText(!summary, t('logins.topIps.empty')) }}
            columns={[
              {
                title: t('logins.columns.ip'),
                render: (_, r) =>
                  r.ip ? (
                    <Button type="link" size="small" className="mono" onClick={() => onPickIp(r.ip!)} data-testid="pick-ip">
                      {r.ip}
                    </Button>
                  ) : (
                    t('logins.noIp')
                  ),
              },
              { title: t('logins.topIps.failures'), dataIndex: 'failures', align: 'right' },
              { title: t('logins.topIps.accounts'), dataIndex: 'accounts', align: 'right' },
              { title: t('logins.lastAt'), render: (_, r) => formatDateTime(r.lastAt) },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card variant="borderless" className="surface-card" title={t('logins.spread.title')} data-testid="spread-accounts">
          <Table<SpreadAccount>
            size="small"
            rowKey="account"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={summary?.spreadAccounts ?? []}
            locale={{ emptyText: tableEmptyText(!summary, t('logins.spread.empty')) }}
            columns={[
              {
                title: t('logins.columns.account'),
                render: (_, r) => (
                  <Button type="link" size="small" onClick={() => onPickAccount(r.account)} data-testid="pick-account">
                    {r.account}
                  </Button>
                ),
              },
              { title: t('logins.spread.ips'), dataIndex: 'ips', align: 'right' },
              { title: t('logins.topIps.failures'), dataIndex: 'failures', align: 'right' },
              { title: t('logins.lastAt'), render: (_, r) => formatDateTime(r.lastAt) },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
