import { CloseCircleOutlined, CreditCardOutlined, ReloadOutlined } from '@ant-design/icons';
import { ORDER_KINDS, ORDER_STATUSES, PAY_METHODS, type OrderDto, type OrderKind, type OrderStatus, type PayMethod } from '@resi/contract';
import { Button, Card, DatePicker, Modal, Select, Space, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';
import { OrderPaymentCell, OrderStateCell } from '@/components/order-cells';
import { OrderItems } from '@/components/order-items';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { dateRangeQuery } from '@/lib/format';
import { myAllOrdersQueryOptions, type MyAllOrderFilters } from '@/api/get-my-orders';
import { notify } from '@/lib/notify';
import { useCancelOrder } from '../api/cancel-order';
import { canContinuePayment, ContinuePaymentModal } from '../components/continue-payment-modal';

interface Filters {
  kind?: OrderKind;
  status?: OrderStatus;
  payMethod?: PayMethod;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** /center/rechargeDetails: every order of the customer (traffic and static), filtered and paged by the server; an unpaid one can be paid or cancelled. */
export default function RechargeDetailsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [paying, setPaying] = useState<OrderDto | null>(null);
  const actionsPin = useActionsPin();
  const [modal, modalHolder] = Modal.useModal();
  const cancel = useCancelOrder();

  const query: MyAllOrderFilters = { kind: filters.kind, status: filters.status, payMethod: filters.payMethod, ...dateRangeQuery(filters.range) };
  const paged = usePagedQuery(myAllOrdersQueryOptions, query);
  const orders = paged.query;

  const confirmCancel = (order: OrderDto) => {
    modal.confirm({
      title: t('recharge.cancel.title'),
      content: t('recharge.cancel.content', { orderNo: order.orderNo }),
      okText: t('recharge.cancel.ok'),
      okButtonProps: { danger: true, 'data-testid': 'cancel-order-confirm' } as never,
      cancelText: t('recharge.cancel.keep'),
      onOk: () =>
        cancel
          .mutateAsync(order.orderNo)
          .then(() => notify.success(t('recharge.cancel.done')))
          .catch(() => undefined),
    });
  };

  const filter = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });

  return (
    <Card variant="borderless" className="surface-card" data-testid="recharge-details">
      {modalHolder}
      <div className="table-toolbar">
        <Space wrap size={[12, 12]}>
          <Select<OrderKind>
            allowClear
            placeholder={t('recharge.filters.kind')}
            value={filters.kind}
            onChange={(kind) => filter({ kind })}
            options={ORDER_KINDS.map((k) => ({ value: k, label: t(`commerce.orderKind.${k}`) }))}
            className="filter-select"
            data-testid="filter-kind"
          />
          <Select<OrderStatus>
            allowClear
            placeholder={t('recharge.filters.status')}
            value={filters.status}
            onChange={(status) => filter({ status })}
            options={ORDER_STATUSES.map((s) => ({ value: s, label: t(`commerce.orderStatus.${s}`) }))}
            className="filter-select"
            data-testid="filter-status"
          />
          <Select<PayMethod>
            allowClear
            placeholder={t('recharge.filters.method')}
            value={filters.payMethod}
            onChange={(payMethod) => filter({ payMethod })}
            options={PAY_METHODS.map((m) => ({ value: m, label: t(`commerce.payMethod.${m}`) }))}
            className="filter-select"
          />
          <DatePicker.RangePicker value={filters.range ?? null} onChange={(range) => filter({ range })} allowEmpty={[true, true]} />
          <Button onClick={() => setFilters({})}>
            {t('commerce.filters.reset')}
          </Button>
        </Space>
        <Button icon={<ReloadOutlined />} onClick={() => void orders.refetch()} loading={orders.isFetching}>
          {t('commerce.filters.refresh')}
        </Button>
      </div>
      <PagedTable<OrderDto>
        paged={paged}
        rowKey="orderNo"
        emptyText={t('recharge.empty')}
        columns={[
          {
            title: t('recharge.columns.orderNo'),
            dataIndex: 'orderNo',
            className: 'nowrap',
            render: (v: string) => <CopyableCode value={v} />,
          },
          // The kind tagged above what was bought, the method under the amount, the times under the status:
          // the columns fit a laptop's width with nothing under the pinned Actions column.
          {
            title: t('recharge.columns.item'),
            key: 'item',
            render: (_v, order) => (
              <>
                <Tag data-testid="order-kind">{t(`commerce.orderKind.${order.kind}`)}</Tag>
                <OrderItems order={order} kindTag={false} />
              </>
            ),
          },
          {
            title: t('recharge.columns.amount'),
            key: 'amount',
            className: 'nowrap',
            render: (_v, order) => <OrderPaymentCell order={order} />,
          },
          {
            title: t('recharge.columns.status'),
            key: 'status',
            className: 'nowrap',
            render: (_v, order) => <OrderStateCell order={order} />,
          },
          {
            title: t('recharge.columns.actions'),
            key: 'actions',
            fixed: actionsPin,
            className: 'nowrap',
            render: (_v, order) => (
              <Space size={0} direction="vertical" align="start">
                {canContinuePayment(order, orders.dataUpdatedAt) ? (
                  <Button type="link" icon={<CreditCardOutlined />} onClick={() => setPaying(order)} data-testid="continue-payment-button">
                    {t('recharge.continue.action')}
                  </Button>
                ) : null}
                {order.status === 'pending' && Date.parse(order.expiresAt) > orders.dataUpdatedAt ? (
                  <Button type="link" danger icon={<CloseCircleOutlined />} onClick={() => confirmCancel(order)} data-testid="cancel-order-button">
                    {t('recharge.cancel.action')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <ContinuePaymentModal order={paying} onClose={() => setPaying(null)} />
    </Card>
  );
}
