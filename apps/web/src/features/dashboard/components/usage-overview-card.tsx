import { ArrowRightOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Button, Card, Skeleton, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TrafficSummary } from '@/api/get-traffic';
import { UsageChart } from '@/components/usage-chart';
import { formatBytes } from '@/lib/format';
import { seriesTotal } from '@/lib/usage-data';

/** The last 7 days of rotating traffic by day; the breakdowns live on Rotating Residential. */
export function UsageOverviewCard({ usage, loading }: { usage: TrafficSummary | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('home.usage.title')}
      extra={
        <Link to="/center/rotatingResidential">
          <Button type="link" icon={<ArrowRightOutlined />} iconPlacement="end">
            {t('home.usage.details')}
          </Button>
        </Link>
      }
      data-testid="home-usage"
    >
      {loading && !usage ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <>
          <Statistic title={t('home.usage.total')} value={formatBytes(seriesTotal(usage?.series ?? []), lang)} className="usage-total" data-testid="home-usage-total" />
          <UsageChart series={usage?.series ?? []} height={220} />
        </>
      )}
    </Card>
  );
}
