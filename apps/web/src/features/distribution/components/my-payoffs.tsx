import { normalizeLang, type PayoffDto } from '@resi/contract';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { payoffsQueryOptions } from '../api/get-payoffs';
import { payoffColumns } from './payoff-columns';

/** The caller's own payoff requests: an admin's list would be everyone's, so it names the caller. */
export function MyPayoffs({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const paged = usePagedQuery(payoffsQueryOptions, { distributorId: userId });
  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.requests.mine')}>
      <PagedTable<PayoffDto>
        paged={paged}
        rowKey="id"
        size="small"
        emptyText={t('distributionManage.requests.emptyMine')}
        errorTitle={t('distributionManage.requests.loadFailed')}
        data-testid="my-payoffs"
        columns={payoffColumns(t, normalizeLang(i18n.language))}
      />
    </Card>
  );
}
