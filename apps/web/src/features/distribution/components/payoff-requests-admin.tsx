import { normalizeLang, PAYOFF_STATUSES, type PayoffDto, type PayoffStatus } from '@resi/contract';
import { Button, Card, Form, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterButtons } from '@/components/filter-buttons';
import { UserPicker } from '@/components/user-picker';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { UserCell } from '@/components/user-cell';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { formatMoney } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useDecidePayoff } from '../api/decide-payoff';
import { payoffsQueryOptions, type PayoffFilters } from '../api/get-payoffs';
import { payoffColumns } from './payoff-columns';
import { type Decision, PayoffDecisionModal } from './payoff-decision-modal';

interface FilterValues {
  status?: PayoffStatus;
  distributorId?: number | null;
}

/** Everyone's payoff requests for an admin: filter by status and distributor, approve, reject or mark paid. */
export function PayoffRequestsAdmin() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [modal, modalHolder] = Modal.useModal();
  const actionsPin = useActionsPin();
  const [form] = Form.useForm<FilterValues>();
  const [filters, setFilters] = useState<PayoffFilters>({ status: 'pending' });
  const [deciding, setDeciding] = useState<{ request: PayoffDto; decision: Decision } | null>(null);
  const decide = useDecidePayoff();
  const paged = usePagedQuery(payoffsQueryOptions, filters);

  const apply = (v: FilterValues) => setFilters({ status: v.status, distributorId: v.distributorId ?? undefined });

  const approve = (p: PayoffDto) =>
    modal.confirm({
      title: t('distributionManage.admin.approveTitle', { id: p.id }),
      content: t('distributionManage.admin.approveContent', { amount: formatMoney(p.amount, p.currency, lang), email: p.distributorEmail }),
      okText: t('distributionManage.admin.approve'),
      cancelText: t('distributionManage.admin.cancel'),
      okButtonProps: { 'data-testid': 'payoff-approve-confirm' } as never,
      onOk: () =>
        decide
          .mutateAsync({ id: p.id, status: 'approved' })
          // It leaves the pending list: say where it went and what is left to do.
          .then(() => notify.success(t('distributionManage.admin.approvedWhere', { id: p.id, status: t('distributionManage.payoffStatus.approved') })))
          .catch(() => undefined),
    });

  return (
    <Card variant="borderless" className="surface-card" title={t('distributionManage.admin.requestsTitle')}>
      <Form<FilterValues> form={form} layout="inline" className="filter-form" initialValues={{ status: 'pending' }} onFinish={apply} data-testid="payoff-filters">
        <Form.Item name="status">
          <Select<PayoffStatus>
            allowClear
            placeholder={t('distributionManage.requests.status')}
            options={PAYOFF_STATUSES.map((s) => ({ value: s, label: t(`distributionManage.payoffStatus.${s}`) }))}
            className="filter-select"
            // A status is a view of the desk: it applies when chosen, like a tab.
            onChange={() => form.submit()}
            data-testid="payoff-filter-status"
          />
        </Form.Item>
        <Form.Item name="distributorId" className="filter-picker">
          <UserPicker distributorsOnly allowClear placeholder={t('distributionManage.admin.distributorId')} testId="payoff-filter-distributor" />
        </Form.Item>
        <FilterButtons
          searchTestId="payoff-search"
          onReset={() => {
            form.resetFields();
            apply(form.getFieldsValue());
          }}
        />
      </Form>
      <PagedTable<PayoffDto>
        paged={paged}
        rowKey="id"
        size="small"
        emptyText={t('distributionManage.admin.empty')}
        errorTitle={t('distributionManage.requests.loadFailed')}
        data-testid="payoff-requests"
        onRow={(p) => ({ 'data-testid': `payoff-row-${p.id}` }) as never}
        columns={[
          {
            title: t('distributionManage.admin.distributor'),
            key: 'distributor',
            render: (_v, p) => <UserCell email={p.distributorEmail} id={p.distributorId} />,
          },
          ...payoffColumns(t, lang),
          {
            // What the distributor earned, and how much of it came from customers they created themselves
            // (no mail code: they may have bought as them), to weigh the request (docs/business-rules.md#payoffs).
            title: t('distributionManage.admin.earned'),
            key: 'earned',
            align: 'right',
            render: (_v, p) => (
              <div className="cell-user">
                <span>{formatMoney(p.earned, p.currency, lang)}</span>
                <span className={p.earnedFromCreatedAccounts === 0 ? 'muted' : undefined} data-testid="payoff-created-share">
                  {p.earnedFromCreatedAccounts === 0 ? (
                    t('distributionManage.admin.fromCreatedNone')
                  ) : (
                    <Tag color="orange">{t('distributionManage.admin.fromCreated', { amount: formatMoney(p.earnedFromCreatedAccounts, p.currency, lang) })}</Tag>
                  )}
                </span>
              </div>
            ),
          },
          {
            title: t('distributionManage.admin.actions'),
            key: 'actions',
            fixed: actionsPin,
            className: 'nowrap',
            render: (_v, p) => (
              <Space size={0}>
                {p.status === 'pending' ? (
                  <Button type="link" size="small" onClick={() => approve(p)} data-testid="payoff-approve">
                    {t('distributionManage.admin.approve')}
                  </Button>
                ) : null}
                {p.status === 'approved' ? (
                  <Button type="link" size="small" onClick={() => setDeciding({ request: p, decision: 'paid' })} data-testid="payoff-pay">
                    {t('distributionManage.admin.markPaid')}
                  </Button>
                ) : null}
                {p.status === 'pending' || p.status === 'approved' ? (
                  <Button type="link" size="small" danger onClick={() => setDeciding({ request: p, decision: 'rejected' })} data-testid="payoff-reject">
                    {t('distributionManage.admin.reject')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {modalHolder}
      <PayoffDecisionModal request={deciding?.request ?? null} decision={deciding?.decision ?? 'rejected'} onClose={() => setDeciding(null)} />
    </Card>
  );
}
