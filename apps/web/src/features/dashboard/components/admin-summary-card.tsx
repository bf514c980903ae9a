import { ArrowRightOutlined } from '@ant-design/icons';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStatisticsSummary } from '@/api/get-statistics-summary';
import { QueryState } from '@/components/query-state';
import { StatisticsSummaryCards } from '@/components/statistics-summary';

/** An admin's Account Home: today's and this month's revenue, orders and registrations (docs/console.md#account-home). */
export default function AdminSummaryCard() {
  const { t } = useTranslation();
  const summary = useStatisticsSummary();
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('statistics.summary.title')}
      extra={
        <Link to="/manage/statistics" data-testid="admin-summary-more">
          {t('statistics.summary.more')} <ArrowRightOutlined />
        </Link>
      }
      data-testid="admin-summary"
    >
      <QueryState query={summary} rows={2} errorTitle={t('statistics.summary.error')}>
        {(data) => <StatisticsSummaryCards summary={data.summary} currency={data.currency} />}
      </QueryState>
    </Card>
  );
}
