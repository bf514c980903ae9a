import { ArrowRightOutlined } from '@ant-design/icons';
import { normalizeLang } from '@resi/contract';
import { Button, Card, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TrafficSummary } from '@/api/get-traffic';
import { QueryState, type QueryLike } from '@/components/query-state';
import { UsageChart } from '@/components/usage-chart';
import { formatBytes } from '@/lib/format';
import { seriesTotal } from '@/lib/usage-data';

/** The last 7 days of rotating traffic by day; the breakdowns live on Rotating Residential. */
export function UsageOverviewCard({ usage }: { usage: QueryLike<TrafficSummary> }) {
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
      <QueryState query={usage} rows={4}>
        {({ series }) => (
          <>
            <Statistic title={t('home.usage.total')} value={formatBytes(seriesTotal(series), lang)} className="usage-total" data-testid="home-usage-total" />
            <UsageChart series={series} height={220} />
          </>
        )}
      </QueryState>
    </Card>
  );
}
