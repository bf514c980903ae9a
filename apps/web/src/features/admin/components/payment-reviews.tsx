import { CheckOutlined } from '@ant-design/icons';
import type { PaymentReviewDto } from '@resi/contract';
import { Button, Modal, Segmented, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { PayMethodLabel } from '@/components/pay-method-label';
import { formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { paymentReviewsQueryOptions, type ReviewQuery } from '../api/get-payment-reviews';
import { useResolvePaymentReview } from '../api/resolve-payment-review';

/** Payments that arrived but matched no open order (wrong amount, late, unknown order): the admin decides. */
export function PaymentReviews() {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const actionsPin = useActionsPin();
  const [status, setStatus] = useState<ReviewQuery['status']>('open');
  const paged = usePagedQuery(paymentReviewsQueryOptions, { status });
  const resolve = useResolvePaymentReview();

  const confirmResolve = (row: PaymentReviewDto) => {
    modal.confirm({
      title: t('admin.reviews.resolve.title'),
      content: t('admin.reviews.resolve.content'),
      okText: t('admin.reviews.resolve.ok'),
      cancelText: t('admin.cancel'),
      onOk: () =>
        resolve
          .mutateAsync(row.id)
          .then((res) => notify.success(res.message || t('admin.reviews.resolve.done')))
          .catch(() => undefined),
    });
  };

  return (
    <div data-testid="payment-reviews">
      {modalHolder}
      <Typography.Paragraph type="secondary">{t('admin.reviews.lead')}</Typography.Paragraph>
      <div className="table-toolbar">
        <Segmented<ReviewQuery['status']>
          value={status}
          onChange={setStatus}
          options={[
            { value: 'open', label: t('admin.reviews.status.open') },
            { value: 'resolved', label: t('admin.reviews.status.resolved') },
          ]}
        />
      </div>
      <PagedTable<PaymentReviewDto>
        paged={paged}
        rowKey="id"
        emptyText={t('admin.reviews.empty')}
        columns={[
          { title: t('admin.reviews.columns.receivedAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          { title: t('admin.reviews.columns.provider'), dataIndex: 'provider', render: (m: PaymentReviewDto['provider']) => <PayMethodLabel method={m} /> },
          {
            title: t('admin.reviews.columns.amount'),
            key: 'amount',
            render: (_v, r) => (
              <Typography.Text strong>
                {r.amount} {r.asset}
              </Typography.Text>
            ),
          },
          { title: t('admin.reviews.columns.orderNo'), dataIndex: 'orderNo', render: (v: string | null) => (v ? <span className="mono">{v}</span> : t('commerce.none')) },
          {
            title: t('admin.reviews.columns.reason'),
            dataIndex: 'reason',
            // The code stays at hand (title) for searching logs; an unknown one shows as it is.
            render: (code: string) => <span title={code}>{t(`admin.reviews.reasons.${code}`, { defaultValue: code })}</span>,
          },
          {
            title: t('admin.reviews.columns.eventId'),
            dataIndex: 'eventId',
            ellipsis: true,
            render: (v: string) => <CopyableCode value={v} />,
          },
          {
            title: t('admin.reviews.columns.status'),
            dataIndex: 'status',
            render: (s: PaymentReviewDto['status']) => <Tag color={s === 'open' ? 'orange' : 'default'}>{t(`admin.reviews.status.${s}`)}</Tag>,
          },
          {
            title: t('admin.orders.columns.actions'),
            key: 'actions',
            fixed: actionsPin,
            render: (_v, r) =>
              r.status === 'open' ? (
                <Button type="link" icon={<CheckOutlined />} onClick={() => confirmResolve(r)}>
                  {t('admin.reviews.resolve.action')}
                </Button>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
