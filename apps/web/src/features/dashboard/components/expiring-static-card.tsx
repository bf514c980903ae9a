import { ClockCircleOutlined, SyncOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Button, Card, Col, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStaticProxies } from '@/api/get-static-proxies';
import { QueryError } from '@/components/query-state';
import { countryName, formatDateTime, localizedName } from '@/lib/format';
import { useNow } from '@/hooks/use-now';
import { timeLeft } from '@/lib/time-left';

/** The reminder's horizon (docs/console.md#account-home). */
export const EXPIRING_DAYS = 7;
/** At most this many IPs listed; the rest are on Static Residential. */
export const EXPIRING_SHOWN = 10;

/**
 * Static IPs expiring within a week, with a way to renew them. Shown only when there are some. When the list
 * failed, the shared error says so in its place (a reminder the customer may need is not hidden), never the
 * card and its Renew button as if there were IPs to renew. A row of Account Home's grid.
 */
export function ExpiringStaticCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const now = useNow();
  const expiring = useStaticProxies({ expiringDays: EXPIRING_DAYS, page: 1, pageSize: EXPIRING_SHOWN });
  if (expiring.isError) {
    return (
      <Col span={24}>
        <QueryError query={expiring} title={t('home.expiring.failed')} testId="home-expiring-error" />
      </Col>
    );
  }
  if ((expiring.data?.items.length ?? 0) === 0) return null;
  return (
    <Col span={24}>
      <Card
        variant="borderless"
        className="surface-card"
        title={
          <span>
            <ClockCircleOutlined /> {t('home.expiring.title')}
          </span>
        }
        extra={
          <Link to="/center/staticResidential">
            <Button type="primary" icon={<SyncOutlined />} data-testid="home-expiring-renew">
              {t('home.expiring.renew')}
            </Button>
          </Link>
        }
        data-testid="home-expiring"
      >
        <ul className="recent-orders">
            {expiring.data!.items.map((p) => (
              <li key={p.id} className="recent-orders__row" data-testid="home-expiring-ip">
                <div className="recent-orders__what">
                  <span className="mono">{p.ip}</span>
                  <Typography.Text type="secondary">
                    {localizedName(p.regionName, lang)} · {countryName(p.country, lang)} · {formatDateTime(p.expiresAt)}
                  </Typography.Text>
                </div>
                <Typography.Text type={timeLeft(p.expiresAt, now, lang) ? 'warning' : 'danger'} className="nowrap">
                  {timeLeft(p.expiresAt, now, lang) ?? t('home.expiring.expired')}
                </Typography.Text>
              </li>
            ))}
          </ul>
        {expiring.data && expiring.data.total > expiring.data.items.length ? (
          <Typography.Text type="secondary">{t('home.expiring.more', { count: expiring.data.total - expiring.data.items.length })}</Typography.Text>
        ) : null}
      </Card>
    </Col>
  );
}
