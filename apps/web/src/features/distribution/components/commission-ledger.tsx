import { COMMISSION_STATES, normalizeLang, type CommissionDto, type CommissionState } from '@resi/contract';
import { Card, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatDateTime, formatMoney } from '@/lib/format';
import { commissionsQueryOptions } from '../api/get-commissions';
import { CommissionStateTag } from './status-tags';

/** The caller's commission ledger: one row per earning, and a negative one per reversal. */
export function CommissionLedger() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [state, setState] = useState<CommissionState | undefined>();
  const paged = usePagedQuery(commissionsQueryOptions, { state });
  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('distributionManage.ledger.title')}
      extra={
        <Select<CommissionState>
          allowClear
          value={state}
          onChange={setState}
          placeholder={t('distributionManage.ledger.state')}
          options={COMMISSION_STATES.map((s) => ({ value: s, label: t(`distributionManage.commissionState.${s}`) }))}
          className="filter-select"
          data-testid="ledger-state-filter"
        />
      }
    >
      <PagedTable<CommissionDto>
        paged={paged}
        rowKey="id"
        size="small"
        emptyText={t('distributionManage.ledger.empty')}
        errorTitle={t('distributionManage.ledger.loadFailed')}
        data-testid="distribution-ledger"
        // Five columns, not eight, so the ledger fits a laptop's width: the buyer under the order, the order's
        // amount and the rate under the commission they make.
        columns={[
          {
            title: t('distributionManage.ledger.orderNo'),
            key: 'order',
            render: (_v, r) => (
              <div className="cell-user">
                <CopyableCode value={r.orderNo} />
                <span className="muted">{r.buyerEmail}</span>
              </div>
            ),
          },
          {
            title: t('distributionManage.ledger.amount'),
            key: 'amount',
            align: 'right',
            render: (_v, r) => (
              <div className="cell-user cell-user--end">
                <span className={r.amount < 0 ? 'dist-negative nowrap' : 'nowrap'}>{formatMoney(r.amount, r.currency, lang)}</span>
                <span className="muted nowrap">{t('distributionManage.ledger.rateOf', { rate: r.rate, amount: formatMoney(r.orderAmount, r.currency, lang) })}</span>
              </div>
            ),
          },
          { title: t('distributionManage.ledger.state'), dataIndex: 'state', render: (s: CommissionState) => <CommissionStateTag state={s} /> },
          { title: t('distributionManage.ledger.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          { title: t('distributionManage.ledger.availableAt'), dataIndex: 'availableAt', render: (v: string) => formatDateTime(v) },
        ]}
      />
    </Card>
  );
}
