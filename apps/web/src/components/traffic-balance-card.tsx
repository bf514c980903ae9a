import { ClockCircleOutlined, DashboardOutlined, HistoryOutlined, WalletOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Button, Card, Col, Row, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes, formatDateTime } from '@/lib/format';
import type { TrafficSummary } from '@/api/get-traffic';
import { QueryState, type QueryLike } from './query-state';

type Grant = TrafficSummary['grants'][number];

/** The grant that runs out first among those with traffic left (usage is taken from it first). */
export function nextExpiringGrant(grants: readonly Grant[]): Grant | null {
  return grants.filter((g) => g.bytes > g.usedBytes).reduce<Grant | null>((first, g) => (!first || g.expiresAt < first.expiresAt ? g : first), null);
}

/** Traffic balance, bytes used, what expires next, and the grants behind the balance. */
export function TrafficBalanceCard({ traffic }: { traffic: QueryLike<TrafficSummary> }) {
  const { t } = useTranslation();
  return (
    <Card
      variant="borderless"
      className="surface-card balance-card"
      title={t('traffic.balance.title')}
      extra={
        <Link to="/center/rechargeDetails">
          <Button type="link" icon={<HistoryOutlined />}>
            {t('traffic.balance.records')}
          </Button>
        </Link>
      }
      data-testid="traffic-balance"
    >
      <QueryState query={traffic} rows={2}>
        {(summary) => <Balance traffic={summary} />}
      </QueryState>
    </Card>
  );
}

function Balance({ traffic }: { traffic: TrafficSummary }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const next = nextExpiringGrant(traffic.grants);
  return (
    <>
      <Row gutter={[24, 16]}>
        <Col xs={24} md={8}>
          <Statistic
            title={t('traffic.balance.balance')}
            value={formatBytes(traffic.balanceBytes, lang)}
            prefix={<WalletOutlined />}
            className="balance-card__main"
            data-testid="balance-value"
          />
        </Col>
        <Col xs={12} md={8}>
          <Statistic title={t('traffic.balance.used')} value={formatBytes(traffic.usedBytes, lang)} prefix={<DashboardOutlined />} />
        </Col>
        <Col xs={12} md={8}>
          <Statistic
            title={t('traffic.balance.nextExpiry')}
            value={next ? (formatDateTime(next.expiresAt) ?? '') : t('traffic.balance.noExpiry')}
            prefix={<ClockCircleOutlined />}
            className="balance-card__expiry"
          />
        </Col>
      </Row>
      {traffic.grants.length > 0 ? (
        <Table<Grant>
          className="balance-card__grants"
          size="small"
          rowKey="id"
          dataSource={traffic.grants}
          scroll={{ x: 'max-content' }}
          pagination={{ pageSize: 5, hideOnSinglePage: true, size: 'small' }}
          columns={[
            { title: t('traffic.grants.order'), dataIndex: 'orderNo', render: (v: string | null) => v ?? t('traffic.grants.bonus') },
            { title: t('traffic.grants.bytes'), dataIndex: 'bytes', render: (v: number) => formatBytes(v, lang) },
            { title: t('traffic.grants.left'), key: 'left', render: (_v, g) => formatBytes(Math.max(0, g.bytes - g.usedBytes), lang) },
            { title: t('traffic.grants.expires'), dataIndex: 'expiresAt', render: (v: string) => formatDateTime(v) },
          ]}
        />
      ) : null}
    </>
  );
}
