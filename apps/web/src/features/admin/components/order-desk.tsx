import { CheckCircleOutlined, DownloadOutlined, EnvironmentOutlined, PlusOutlined, RollbackOutlined } from '@ant-design/icons';
import {
  normalizeLang,
  ORDER_KINDS,
  ORDER_STATUSES,
  PAY_METHODS,
  type AdminOrderDto,
  type OrderKind,
  type OrderStatus,
  type PayMethod,
} from '@resi/contract';
import { Button, DatePicker, Descriptions, Form, Input, Modal, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterButtons } from '@/components/filter-buttons';
import { CopyableCode } from '@/components/copyable-code';
import { OrderPaymentCell, OrderStateCell } from '@/components/order-cells';
import { OrderItems } from '@/components/order-items';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { UserCell } from '@/components/user-cell';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { dateRangeQuery, formatDateTime, formatMoney } from '@/lib/format';
import { optionalText } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useExportOrders } from '../api/export-orders';
import { ordersQueryOptions, type OrderFilters } from '../api/get-orders';
import { useVerifyOrder } from '../api/verify-order';
import { RechargeModal } from './recharge-modal';
import { canRefund, RefundModal } from './refund-modal';
import { StaticGrantModal } from './static-grant-modal';

interface FilterValues {
  status?: OrderStatus;
  kind?: OrderKind;
  payMethod?: PayMethod;
  email?: string;
  orderNo?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The filter form as the list's query (empty text left out). */
export function orderFilters(values: FilterValues): OrderFilters {
  return {
    status: values.status,
    kind: values.kind,
    payMethod: values.payMethod,
    email: optionalText(values.email),
    orderNo: optionalText(values.orderNo),
    ...dateRangeQuery(values.range),
  };
}

/** Pending orders, and expired ones whose money arrived late (the server accepts both), can be verified by hand. */
export function canVerify(order: Pick<AdminOrderDto, 'status' | 'kind'>): boolean {
  return order.kind !== 'manual-recharge' && (order.status === 'pending' || order.status === 'expired');
}

/** All orders with filters and server paging; verify a pending one, refund a paid one; recharge traffic or grant static IPs by hand; export as CSV. */
export function OrderDesk() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [modal, modalHolder] = Modal.useModal();
  const actionsPin = useActionsPin();
  const [form] = Form.useForm<FilterValues>();
  const [filters, setFilters] = useState<OrderFilters>({});
  const [recharging, setRecharging] = useState(false);
  const [granting, setGranting] = useState(false);
  const [refunding, setRefunding] = useState<AdminOrderDto | null>(null);
  const paged = usePagedQuery(ordersQueryOptions, filters);
  const verify = useVerifyOrder();
  const exporter = useExportOrders();

  const apply = (values: FilterValues) => setFilters(orderFilters(values));

  const confirmVerify = (order: AdminOrderDto) => {
    modal.confirm({
      title: t('admin.orders.verify.title'),
      content: t('admin.orders.verify.content', { orderNo: order.orderNo, email: order.userEmail, amount: formatMoney(order.amount, order.currency, lang) }),
      okText: t('admin.orders.verify.ok'),
      cancelText: t('admin.cancel'),
      onOk: () =>
        verify
          .mutateAsync(order.orderNo)
          .then((res) => notify.success(res.message || t('admin.orders.verify.done')))
          .catch(() => undefined),
    });
  };

  return (
    <div data-testid="order-desk">
      {modalHolder}
      <Form<FilterValues> name="order-filter" form={form} layout="inline" onFinish={apply} className="filter-form">
        <Form.Item name="email">
          <Input allowClear placeholder={t('admin.orders.filters.email')} className="filter-input" data-testid="filter-email" />
        </Form.Item>
        <Form.Item name="orderNo">
          <Input allowClear placeholder={t('admin.orders.filters.orderNo')} className="filter-input" data-testid="filter-order-no" />
        </Form.Item>
        <Form.Item name="status">
          <Select<OrderStatus>
            allowClear
            placeholder={t('admin.orders.filters.status')}
            options={ORDER_STATUSES.map((s) => ({ value: s, label: t(`commerce.orderStatus.${s}`) }))}
            className="filter-select"
          />
        </Form.Item>
        <Form.Item name="kind">
          <Select<OrderKind>
            allowClear
            placeholder={t('admin.orders.filters.kind')}
            options={ORDER_KINDS.map((k) => ({ value: k, label: t(`commerce.orderKind.${k}`) }))}
            className="filter-select"
          />
        </Form.Item>
        <Form.Item name="payMethod">
          <Select<PayMethod>
            allowClear
            placeholder={t('admin.orders.filters.method')}
            options={PAY_METHODS.map((m) => ({ value: m, label: t(`commerce.payMethod.${m}`) }))}
            className="filter-select"
          />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </Form.Item>
        <FilterButtons
          searchTestId="orders-search"
          onReset={() => {
            form.resetFields();
            apply({});
          }}
        />
      </Form>
      <div className="table-toolbar table-toolbar--end">
        <Space wrap>
          <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={() => exporter.mutate(filters)} data-testid="orders-export">
            {t('admin.orders.export')}
          </Button>
          <Button icon={<EnvironmentOutlined />} onClick={() => setGranting(true)} data-testid="open-static-grant">
            {t('admin.staticGrant.open')}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setRecharging(true)} data-testid="open-recharge">
            {t('admin.recharge.open')}
          </Button>
        </Space>
      </div>
      <PagedTable<AdminOrderDto>
        paged={paged}
        rowKey="orderNo"
        emptyText={t('admin.orders.empty')}
        expandable={{
          expandedRowRender: (order) => (
            <Descriptions
              size="small"
              column={{ xs: 1, md: 2, xl: 3 }}
              items={[
                { key: 'providerRef', label: t('admin.orders.columns.providerRef'), children: order.providerRef ?? t('commerce.none') },
                { key: 'paidBy', label: t('admin.orders.columns.paidBy'), children: order.paidBy ? t(`commerce.paidBy.${order.paidBy}`) : t('commerce.none') },
                { key: 'expiresAt', label: t('admin.orders.columns.expiresAt'), children: formatDateTime(order.expiresAt) },
                { key: 'note', label: t('admin.orders.columns.note'), children: order.note ?? t('commerce.none') },
              ]}
            />
          ),
        }}
        columns={[
          {
            title: t('admin.orders.columns.orderNo'),
            dataIndex: 'orderNo',
            className: 'nowrap',
            render: (v: string) => <CopyableCode value={v} />,
          },
          {
            title: t('admin.orders.columns.user'),
            key: 'user',
            render: (_v, o) => <UserCell email={o.userEmail} id={o.userId} />,
          },
          { title: t('admin.orders.columns.item'), key: 'item', render: (_v, o) => <OrderItems order={o} /> },
          {
            title: t('admin.orders.columns.payment'),
            key: 'payment',
            render: (_v, o) => <OrderPaymentCell order={o} showDemo={false} />,
          },
          // The times under the status: the columns fit a laptop's width with nothing under the pinned Actions.
          {
            title: t('admin.orders.columns.status'),
            key: 'status',
            className: 'nowrap',
            render: (_v, o) => <OrderStateCell order={o} />,
          },
          {
            title: t('admin.orders.columns.actions'),
            key: 'actions',
            fixed: actionsPin,
            className: 'nowrap',
            render: (_v, o) =>
              canVerify(o) ? (
                <Button type="link" icon={<CheckCircleOutlined />} onClick={() => confirmVerify(o)} data-testid="verify-order">
                  {t('admin.orders.verify.action')}
                </Button>
              ) : canRefund(o) ? (
                <Button type="link" danger icon={<RollbackOutlined />} onClick={() => setRefunding(o)} data-testid="refund-order">
                  {t('refunds.action')}
                </Button>
              ) : null,
          },
        ]}
      />
      <RechargeModal open={recharging} onClose={() => setRecharging(false)} />
      <StaticGrantModal open={granting} onClose={() => setGranting(false)} />
      <RefundModal order={refunding} onClose={() => setRefunding(null)} />
    </div>
  );
}
