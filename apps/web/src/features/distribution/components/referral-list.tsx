import { EditOutlined, UserAddOutlined } from '@ant-design/icons';
import { type DistributionUserDto, normalizeLang } from '@resi/contract';
import { Button, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatCount, formatDateTime, formatMoney } from '@/lib/format';
import { type ReferralFilters, referralsQueryOptions } from '../api/get-referrals';
import { ReferralFilterBar } from './referral-filter-bar';
import { ReferralFormModal } from './referral-form-modal';

type Editing = { open: false } | { open: true; user: DistributionUserDto | null };

/**
 * The caller's referred users (an admin's: everyone's, or one distributor's) with what they paid and earned,
 * paged by the server; a distributor creates customers under themselves and edits a referral's remark or status.
 */
/**
 * `canCreate`: only a distributor creates customers here. The server files a new customer under whoever
 * creates it, and under an admin who is not a distributor that customer would earn nobody anything.
 */
export function ReferralList({ isAdmin, canCreate }: { isAdmin: boolean; canCreate: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [filters, setFilters] = useState<ReferralFilters>({});
  const [editing, setEditing] = useState<Editing>({ open: false });
  const paged = usePagedQuery(referralsQueryOptions, filters);
  const count = (n: number) => formatCount(n, lang);

  const columns: ColumnsType<DistributionUserDto> = [
    {
      title: t('distributionUsers.columns.user'),
      key: 'user',
      render: (_v, u) => (
        <div className="cell-user">
          <span>{u.email}</span>
          <span className="muted">
            #{u.id}
            {u.account ? ` · ${u.account}` : ''}
          </span>
        </div>
      ),
    },
    ...(isAdmin ? [{ title: t('distributionUsers.columns.distributor'), key: 'distributor', render: (_v: unknown, u: DistributionUserDto) => u.distributorEmail }] : []),
    { title: t('distributionUsers.columns.remark'), key: 'remark', render: (_v, u) => u.remark ?? t('commerce.none') },
    {
      title: t('distributionUsers.columns.status'),
      key: 'status',
      // The operator's disable is told apart: only an admin lifts it (docs/business-rules.md#referred-users).
      render: (_v, u) => (
        <Tag color={u.status === 'active' ? 'green' : 'red'} data-testid="referral-status-tag">
          {t(u.disabledBy === 'admin' ? 'distributionUsers.status.disabledByAdmin' : `distributionUsers.status.${u.status}`)}
        </Tag>
      ),
    },
    { title: t('distributionUsers.columns.createdAt'), key: 'createdAt', className: 'nowrap', render: (_v, u) => formatDateTime(u.createdAt) },
    { title: t('distributionUsers.columns.paidOrders'), key: 'paidOrders', align: 'right', render: (_v, u) => count(u.paidOrders) },
    { title: t('distributionUsers.columns.paidAmount'), key: 'paidAmount', align: 'right', className: 'nowrap', render: (_v, u) => formatMoney(u.paidAmount, u.currency, lang) },
    { title: t('distributionUsers.columns.commission'), key: 'commission', align: 'right', className: 'nowrap', render: (_v, u) => formatMoney(u.commission, u.currency, lang) },
    {
      title: t('distributionUsers.columns.actions'),
      key: 'actions',
      render: (_v, u) => (
        <Typography.Link onClick={() => setEditing({ open: true, user: u })} data-testid="referral-edit">
          <EditOutlined /> {t('distributionUsers.edit')}
        </Typography.Link>
      ),
    },
  ];

  return (
    <div data-testid="referral-list">
      <ReferralFilterBar onApply={setFilters} byDistributor={isAdmin} />
      {canCreate && (
        <div className="table-toolbar table-toolbar--end">
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setEditing({ open: true, user: null })} data-testid="referral-create">
            {t('distributionUsers.create')}
          </Button>
        </div>
      )}
      <PagedTable<DistributionUserDto>
        paged={paged}
        rowKey="id"
        emptyText={t('distributionUsers.empty')}
        errorTitle={t('distributionUsers.error')}
        errorTestId="referrals-error"
        onRow={(u) => ({ 'data-testid': `referral-row-${u.email}` }) as never}
        columns={columns}
      />
      {editing.open ? <ReferralFormModal open editing={editing.user} isAdmin={isAdmin} onClose={() => setEditing({ open: false })} /> : null}
    </div>
  );
}
