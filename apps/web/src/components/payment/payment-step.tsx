import { LoadingOutlined } from '@ant-design/icons';
import { normalizeLang, type OrderDto, type PaymentInstruction } from '@resi/contract';
import { Button, Result, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatBytes, formatMoney } from '@/lib/format';
import { PaymentInstructionView } from './payment-instruction';

/** Traffic an order adds when paid: the sum of its traffic items (static IPs are sold by the day). */
export function orderBytes(order: Pick<OrderDto, 'items'>): number {
  return order.items.reduce((sum, item) => (item.type === 'traffic' ? sum + item.bytes * item.quantity : sum), 0);
}

/**
 * The payment screen of one order, as last polled: while pending, how to pay and a live "waiting" line
 * with the time left; once settled, the outcome (paid → links onwards; expired or cancelled → start again).
 */
export function PaymentStep({
  order,
  payment,
  onRestart,
  onClose,
}: {
  order: OrderDto;
  payment: PaymentInstruction | null;
  /** Offered when the order can no longer be paid. */
  onRestart?: () => void;
  /** Offered with the links once paid (closes a dialog). */
  onClose?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);

  if (order.status !== 'pending') return <PaymentOutcome order={order} onRestart={onRestart} onClose={onClose} />;

  return (
    <div className="pay-step" data-testid="payment-step">
      <div className="pay-step__summary">
        <div>
          <div className="pay-step__label">{t('commerce.payment.orderNo')}</div>
          <Typography.Text strong copyable={{ tooltips: [t('commerce.copy'), t('commerce.copied')] }} data-testid="payment-order-no">
            {order.orderNo}
          </Typography.Text>
        </div>
        <div>
          <div className="pay-step__label">{t('commerce.payment.amount')}</div>
          <Typography.Text strong className="pay-step__amount">
            {formatMoney(order.amount, order.currency, lang)}
          </Typography.Text>
        </div>
        <div>
          <div className="pay-step__label">{t('commerce.payment.expiresIn')}</div>
          <Statistic.Timer type="countdown" value={new Date(order.expiresAt).getTime()} format="mm:ss" className="pay-step__timer" />
        </div>
      </div>
      {payment ? <PaymentInstructionView order={order} payment={payment} /> : null}
      <div className="pay-step__waiting" data-testid="payment-waiting">
        <LoadingOutlined /> {t('commerce.payment.waiting')}
      </div>
    </div>
  );
}

function PaymentOutcome({ order, onRestart, onClose }: { order: OrderDto; onRestart?: () => void; onClose?: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const restart: ReactNode = onRestart ? (
    <Button type="primary" key="restart" onClick={onRestart} data-testid="payment-restart">
      {t('commerce.payment.restart')}
    </Button>
  ) : null;

  if (order.status === 'paid') {
    // Static IPs are listed, with their orders, on Static Residential; traffic goes to the balance.
    const isStatic = order.kind === 'static' || order.kind === 'static-renew';
    return (
      <Result
        status="success"
        title={t('commerce.payment.paid.title')}
        subTitle={
          isStatic
            ? t(`commerce.payment.paid.${order.kind === 'static' ? 'staticDescription' : 'renewDescription'}`, { orderNo: order.orderNo })
            : t('commerce.payment.paid.description', { traffic: formatBytes(orderBytes(order), lang), orderNo: order.orderNo })
        }
        data-testid="payment-paid"
        extra={
          isStatic
            ? [
                <Link key="static" to="/center/staticResidential" onClick={onClose}>
                  <Button type="primary">{t('commerce.payment.paid.static')}</Button>
                </Link>,
              ]
            : [
                <Link key="records" to="/center/rechargeDetails" onClick={onClose}>
                  <Button type="primary">{t('commerce.payment.paid.records')}</Button>
                </Link>,
                <Link key="rotating" to="/center/rotatingResidential" onClick={onClose}>
                  <Button>{t('commerce.payment.paid.rotating')}</Button>
                </Link>,
              ]
        }
      />
    );
  }
  const key = order.status === 'expired' ? 'expired' : order.status === 'cancelled' ? 'cancelled' : 'refunded';
  return (
    <Result
      status={order.status === 'expired' ? 'warning' : order.status === 'cancelled' ? 'error' : 'info'}
      title={t(`commerce.payment.${key}.title`)}
      subTitle={t(`commerce.payment.${key}.description`, { orderNo: order.orderNo })}
      data-testid={`payment-${key}`}
      extra={restart ? [restart] : undefined}
    />
  );
}
