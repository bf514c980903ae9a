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
        columns={[
          { title: t('distributionManage.ledger.orderNo'), dataIndex: 'orderNo', className: 'nowrap', render: (v: string) => <CopyableCode value={v} /> },
          { title: t('distributionManage.ledger.buyer'), dataIndex: 'buyerEmail', className: 'nowrap' },
          { title: t('distributionManage.ledger.orderAmount'), key: 'orderAmount', align: 'right', className: 'nowrap', render: (_v, r) => formatMoney(r.orderAmount, r.currency, lang) },
          { title: t('distributionManage.ledger.rate'), dataIndex: 'rate', align: 'right', render: (v: number) => `${v}%` },
          {
            title: t('distributionManage.ledger.amount'),
            key: 'amount',
            align: 'right',
            className: 'nowrap',
            render: (_v, r) => <span className={r.amount < 0 ? 'dist-negative' : undefined}>{formatMoney(r.amount, r.currency, lang)}</span>,
          },
          { title: t('distributionManage.ledger.state'), dataIndex: 'state', render: (s: CommissionState) => <CommissionStateTag state={s} /> },
          { title: t('distributionManage.ledger.createdAt'), dataIndex: 'createdAt', className: 'nowrap', render: (v: string) => formatDateTime(v) },
          { title: t('distributionManage.ledger.availableAt'), dataIndex: 'availableAt', className: 'nowrap', render: (v: string) => formatDateTime(v) },
        ]}
      />
    </Card>
  );
}
