import { LockOutlined } from '@ant-design/icons';
import { normalizeLang, type OrderDto, type PackageDto, type PayMethod } from '@resi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Skeleton, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrderStatus } from '@/api/check-order';
import { useSite } from '@/api/get-site';
import { PaymentStep } from '@/components/payment/payment-step';
import { QueryError, type QueryLike } from '@/components/query-state';
import { browser } from '@/lib/api-client';
import { formatBytes, formatMoney, localizedName } from '@/lib/format';
import { useBuyDynamic, type Purchase } from '../api/buy-dynamic';
import { trafficKey } from '@/api/get-traffic';
import { PayMethodPicker } from '@/components/payment/pay-method-picker';

export interface CheckoutEvents {
  onMethod: (method: PayMethod) => void;
  onPaid: () => void;
  onClose: () => void;
}

/**
 * Checkout of one package: choose how to pay → pay (the server's payment instruction, polled every 3 s)
 * → done. A new order is made on "Pay"; "start again" after expiry or cancellation goes back to step one.
 */
export function CheckoutModal({ pkg, methods, events }: { pkg: PackageDto | null; methods: QueryLike<readonly PayMethod[]>; events: CheckoutEvents }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={pkg !== null}
      onCancel={events.onClose}
      title={t('buy.checkout.title')}
      footer={null}
      width={680}
      destroyOnHidden
      mask={{ closable: false }}
      className="checkout-modal"
      data-testid="checkout"
    >
      {pkg ? <Checkout pkg={pkg} methods={methods} events={events} /> : null}
    </Modal>
  );
}

function CheckoutSteps({ current, failed = false }: { current: number; failed?: boolean }) {
  const { t } = useTranslation();
  return (
    <Steps
      size="small"
      current={current}
      status={failed ? 'error' : current === 2 ? 'finish' : 'process'}
      className="checkout-steps"
      items={[{ title: t('buy.checkout.stepMethod') }, { title: t('buy.checkout.stepPay') }, { title: t('buy.checkout.stepDone') }]}
    />
  );
}

function Checkout({ pkg, methods, events }: { pkg: PackageDto; methods: QueryLike<readonly PayMethod[]>; events: CheckoutEvents }) {
  const [purchase, setPurchase] = useState<Purchase | null>(null);
  if (purchase) return <CheckoutPayment purchase={purchase} events={events} onRestart={() => setPurchase(null)} />;
  return <CheckoutMethod pkg={pkg} methods={methods} events={events} onBought={setPurchase} />;
}

function CheckoutMethod({
  pkg,
  methods: methodsQuery,
  events,
  onBought,
}: {
  pkg: PackageDto;
  methods: QueryLike<readonly PayMethod[]>;
  events: CheckoutEvents;
  onBought: (purchase: Purchase) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const site = useSite();
  const buy = useBuyDynamic();
  const [picked, setPicked] = useState<PayMethod | undefined>(undefined);
  // A failed list offers nothing to pay with (and says why); it is not "no method enabled".
  const methods = methodsQuery.isError ? [] : (methodsQuery.data ?? []);
  // The first offered method is preselected; a pick survives the list reloading.
  const method = picked && methods.includes(picked) ? picked : methods[0];
  // And so does the preselection: a method enabled meanwhile may come first in the reloaded list, and
  // the customer, who saw (and maybe clicked) the one shown selected, must not pay with another.
  // Recorded while rendering (React's pattern for state derived from props), not in an effect.
  if (method && method !== picked) setPicked(method);
  const price = formatMoney(pkg.price, pkg.currency, lang);

  const choose = (value: PayMethod) => {
    setPicked(value);
    events.onMethod(value);
  };

  const pay = () => {
    if (!method) return;
    events.onMethod(method);
    buy.mutate(
      { goodsId: pkg.id, payMethod: method },
      {
        onSuccess: (purchase) => {
          // The provider's page opens in a new tab; the payment step keeps a button for when it was blocked.
          if (purchase.payment.type === 'redirect') browser.openTab(purchase.payment.url, 'noopener');
          onBought(purchase);
        },
      },
    );
  };

  return (
    <div className="checkout" data-testid="checkout-method">
      <CheckoutSteps current={0} />
      <div className="checkout__package">
        <div>
          <div className="checkout__package-name">{localizedName(pkg.name, lang)}</div>
          <div className="checkout__package-meta">
            {t('buy.checkout.packageMeta', { traffic: formatBytes(pkg.bytes, lang), days: pkg.validityDays })}
          </div>
        </div>
        <div className="checkout__package-price">{price}</div>
      </div>
      <Typography.Title level={5} className="checkout__section-title">
        {t('buy.checkout.chooseMethod')}
      </Typography.Title>
      {methodsQuery.isError ? (
        <QueryError query={methodsQuery} title={t('buy.checkout.methodsFailed')} />
      ) : methods.length > 0 ? (
        <PayMethodPicker methods={methods} value={method} onChange={choose} />
      ) : methodsQuery.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Alert
          type="warning"
          showIcon
          title={t('buy.checkout.noMethods')}
          description={
            <>
              {t('buy.checkout.noMethodsHint')}{' '}
              {site.supportUrl ? (
                <a href={site.supportUrl} target="_blank" rel="noopener noreferrer">
                  {t('tips.supportLink')}
                </a>
              ) : null}
            </>
          }
          data-testid="no-pay-methods"
        />
      )}
      <div className="checkout__total">
        <span>{t('buy.checkout.total')}</span>
        <strong>{price}</strong>
      </div>
      <Button type="primary" size="large" block icon={<LockOutlined />} disabled={!method} loading={buy.isPending} onClick={pay} data-testid="checkout-pay">
        {buy.isPending ? t('buy.checkout.creating') : t('buy.checkout.pay', { amount: price })}
      </Button>
      <Typography.Paragraph type="secondary" className="checkout__note">
        {t('buy.checkout.note')}
      </Typography.Paragraph>
    </div>
  );
}

function CheckoutPayment({ purchase, events, onRestart }: { purchase: Purchase; events: CheckoutEvents; onRestart: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const order: OrderDto = useOrderStatus(purchase.order);
  const { onPaid } = events;

  useEffect(() => {
    if (order.status !== 'paid') return;
    onPaid();
    void queryClient.invalidateQueries({ queryKey: trafficKey });
  }, [order.status, onPaid, queryClient]);

  const settled = order.status !== 'pending';
  return (
    <div className="checkout" data-testid="checkout-payment">
      <CheckoutSteps current={order.status === 'paid' ? 2 : 1} failed={settled && order.status !== 'paid'} />
      <PaymentStep order={order} payment={order.payment ?? purchase.payment} onRestart={onRestart} onClose={events.onClose} />
      {!settled ? (
        <Typography.Paragraph type="secondary" className="checkout__note">
          {t('buy.checkout.leaveHint')}
        </Typography.Paragraph>
      ) : order.status === 'paid' ? (
        <div className="checkout__done">
          <Button onClick={events.onClose} data-testid="checkout-close">
            {t('buy.checkout.close')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
