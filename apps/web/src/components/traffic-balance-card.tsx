import { ClockCircleOutlined, DashboardOutlined, HistoryOutlined, HourglassOutlined, WalletOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Button, Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBalance, formatBytes, formatDate, formatDateTime } from '@/lib/format';
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
      <QueryState query={traffic} placeholder={<Figures />}>
        {(summary) => <Balance traffic={summary} />}
      </QueryState>
    </Card>
  );
}

function Balance({ traffic }: { traffic: TrafficSummary }) {
  return (
    <>
      <Figures traffic={traffic} />
      {traffic.grants.length > 0 ? <GrantsTable grants={traffic.grants} /> : null}
    </>
  );
}

/**
 * The three figures and the run-out line; while loading, the same with their values still to come, so the page
 * below does not move down when they arrive (a two-line skeleton was a third of their height on a phone).
 */
function Figures({ traffic }: { traffic?: TrafficSummary }) {
  const { t, i18n } = useTranslation();
  const loading = traffic === undefined;
  const lang = normalizeLang(i18n.language);
  const next = traffic ? nextExpiringGrant(traffic.grants) : null;
  return (
    <>
      <Row gutter={[24, 16]}>
        <Col xs={24} md={8}>
          <Statistic
            title={t('traffic.balance.balance')}
            value={traffic ? formatBalance(traffic.balanceBytes, lang) : ''}
            prefix={<WalletOutlined />}
            loading={loading}
            className="balance-card__main"
            data-testid={loading ? undefined : 'balance-value'}
          />
        </Col>
        <Col xs={12} md={8}>
          <Statistic title={t('traffic.balance.used')} value={traffic ? formatBytes(traffic.usedBytes, lang) : ''} prefix={<DashboardOutlined />} loading={loading} />
        </Col>
        <Col xs={12} md={8}>
          <Statistic
            title={t('traffic.balance.nextExpiry')}
            value={!traffic ? '' : next ? (formatDateTime(next.expiresAt) ?? '') : t('traffic.balance.noExpiry')}
            prefix={<ClockCircleOutlined />}
            loading={loading}
            className="balance-card__expiry"
          />
        </Col>
      </Row>
      <RunOutLine runsOutAt={traffic?.runsOutAt ?? null} />
    </>
  );
}

/**
 * When the balance runs out at the last 7 days' pace (the server's estimate); nothing when it cannot tell (no use,
 * nothing left). Its line is kept empty rather than left out, so the card is as tall loading as loaded.
 */
function RunOutLine({ runsOutAt }: { runsOutAt: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="balance-card__runout">
      {runsOutAt ? (
        <span data-testid="balance-runout">
          <HourglassOutlined /> {t('traffic.balance.runsOut', { date: formatDate(runsOutAt) })}
        </span>
      ) : null}
    </div>
  );
}

/*
 * A plain table: a balance has a few grants, and antd's Table would bring its pagination, filter and
 * selection parts (select, tree, checkbox, radio: about 70 kB compressed) into the first load of Account Home.
 */
function GrantsTable({ grants }: { grants: readonly Grant[] }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <div className="grants-table" data-testid="grants">
      <table>
        <thead>
          <tr>
            <th>{t('traffic.grants.order')}</th>
            <th>{t('traffic.grants.bytes')}</th>
            <th>{t('traffic.grants.left')}</th>
            <th>{t('traffic.grants.expires')}</th>
          </tr>
        </thead>
        <tbody>
          {grants.map((g) => (
            <tr key={g.id} data-testid="grant">
              <td>{g.orderNo ?? t('traffic.grants.bonus')}</td>
              <td>{formatBytes(g.bytes, lang)}</td>
              <td>{formatBytes(Math.max(0, g.bytes - g.usedBytes), lang)}</td>
              <td>{formatDateTime(g.expiresAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
