import { normalizeLang, orderRefundBody, type AdminOrderDto, type OrderRefundDto } from '@resi/contract';
import { Alert, Descriptions, Form, Input, Modal, type ButtonProps } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { OrderItems } from '@/components/order-items';
import { QueryState } from '@/components/query-state';
import { formatBytes, formatDateTime, formatMoney } from '@/lib/format';
import { schemaRule } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useRefundPreview } from '../api/get-refund-preview';
import { useRefundOrder } from '../api/refund-order';

/** Paid orders can be refunded; the server decides again, so a stale row only earns a refusal. */
export function canRefund(order: Pick<AdminOrderDto, 'status'>): boolean {
  return order.status === 'paid';
}

/** The lines "what will be taken back" lists, in the admin's language; one line when there is nothing. */
export function takeBackLines(preview: OrderRefundDto, t: TFunction, lang: ReturnType<typeof normalizeLang>): string[] {
  const { order, takeBack } = preview;
  const lines: string[] = [];
  if (order.items.some((i) => i.type === 'traffic')) lines.push(t('refunds.takeBack.traffic', { traffic: formatBytes(takeBack.trafficBytes, lang) }));
  for (const ip of takeBack.staticIps) lines.push(t('refunds.takeBack.staticIp', { ip: ip.ip }));
  for (const r of takeBack.renewals) lines.push(t('refunds.takeBack.renewal', { ip: r.ip, days: r.days, expiresAt: formatDateTime(r.expiresAt) }));
  return lines.length > 0 ? lines : [t('refunds.takeBack.nothing')];
}

/** The distributor's side of the refund: their commission on the order is voided or taken back. */
export function commissionLine(c: NonNullable<OrderRefundDto['takeBack']['commission']>, t: TFunction, lang: ReturnType<typeof normalizeLang>): string {
  const values = { email: c.distributorEmail, amount: formatMoney(c.amount, c.currency, lang) };
  return c.effect === 'void' ? t('refunds.commission.void', values) : t('refunds.commission.reversal', values);
}

/**
 * Asks before refunding `order` (docs/business-rules.md#refunds): what the customer loses, read from the
 * server as it is now, and the note that says how the money went back. Closes once refunded.
 */
export function RefundModal({ order, onClose }: { order: AdminOrderDto | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [form] = Form.useForm<{ note: string }>();
  const preview = useRefundPreview(order?.orderNo ?? null);
  const refund = useRefundOrder();

  const submit = ({ note }: { note: string }) => {
    if (!order) return;
    refund.mutate(
      { orderNo: order.orderNo, note: note.trim() },
      {
        onSuccess: (res) => {
          notify.success(res.message || t('refunds.done'));
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      open={order !== null}
      onCancel={onClose}
      title={t('refunds.title', { orderNo: order?.orderNo ?? '' })}
      okText={refund.isPending ? t('common.submitting') : t('refunds.ok')}
      cancelText={t('refunds.cancel')}
      onOk={() => form.submit()}
      confirmLoading={refund.isPending}
      destroyOnHidden
      okButtonProps={{ danger: true, disabled: preview.data === undefined, 'data-testid': 'refund-submit' } as ButtonProps}
      data-testid="refund-modal"
    >
      <Alert type="warning" showIcon title={t('refunds.moneyHint')} className="modal-hint" />
      <QueryState query={preview} errorTitle={t('refunds.previewFailed')} errorTestId="refund-preview-error">
        {(data) => (
          <>
            <Descriptions
              size="small"
              column={1}
              className="refund-order"
              items={[
                { key: 'user', label: t('refunds.user'), children: data.order.userEmail },
                { key: 'item', label: t('refunds.item'), children: <OrderItems order={data.order} /> },
                { key: 'amount', label: t('refunds.amount'), children: formatMoney(data.order.amount, data.order.currency, lang) },
              ]}
            />
            <div className="refund-take-back" data-testid="refund-take-back">
              <div className="refund-take-back__title">{t('refunds.takeBack.title')}</div>
              <ul>
                {takeBackLines(data, t, lang).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {data.takeBack.commission && (
                <p className="refund-take-back__commission" data-testid="refund-commission">
                  {commissionLine(data.takeBack.commission, t, lang)}
                </p>
              )}
            </div>
          </>
        )}
      </QueryState>
      <Form<{ note: string }> name="refund" form={form} layout="vertical" requiredMark={false} onFinish={submit} preserve={false}>
        <Form.Item name="note" label={t('refunds.note')} rules={[schemaRule(orderRefundBody.shape.note, t)]} extra={t('refunds.noteHint')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} data-testid="refund-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
