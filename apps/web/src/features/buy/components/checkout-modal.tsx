import { LockOutlined } from '@ant-design/icons';
import { ORDER_TTL_MINUTES, STATIC_ORDER_TTL_MINUTES, normalizeLang, type BuyStaticBody, type LocalizedText, type OrderDto, type OrderKind, type PackageDto, type PayMethod } from '@resi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrderStatus } from '@/api/check-order';
import { PaymentStep } from '@/components/payment/payment-step';
import type { QueryLike } from '@/components/query-state';
import { browser } from '@/lib/api-client';
import { formatBytes, formatMoney, localizedName } from '@/lib/format';
import { useBuyDynamic, type Purchase } from '../api/buy-dynamic';
import { useBuyStatic } from '../api/buy-static';
import { staticRegionsKey } from '@/api/get-static-regions';
import { staticProxiesKey } from '@/api/get-static-proxies';
import { trafficKey } from '@/api/get-traffic';
import { PayMethodChoice } from '@/components/payment/pay-method-choice';

/** What the checkout sells: a traffic package, or static IPs of one region and line for some days. */
export type CheckoutItem =
  | { kind: 'dynamic'; pkg: PackageDto }
  | { kind: 'static'; body: Omit<BuyStaticBody, 'payMethod'>; region: LocalizedText; business: LocalizedText; unitPrice: number; currency: string };

export interface CheckoutEvents {
  onMethod: (method: PayMethod) => void;
  onPaid: () => void;
  onClose: () => void;
}

/**
 * Checkout of one package or of static IPs: choose how to pay → pay (the server's payment instruction, polled every 3 s)
 * → done. A new order is made on "Pay"; "start again" after expiry or cancellation goes back to step one.
 */
export function CheckoutModal({ item, methods, events }: { item: CheckoutItem | null; methods: QueryLike<readonly PayMethod[]>; events: CheckoutEvents }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={item !== null}
      onCancel={events.onClose}
      title={t('buy.checkout.title')}
      footer={null}
      width={680}
      destroyOnHidden
      mask={{ closable: false }}
      className="checkout-modal"
      data-testid="checkout"
    >
      {item ? <Checkout item={item} methods={methods} events={events} /> : null}
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

function Checkout({ item, methods, events }: { item: CheckoutItem; methods: QueryLike<readonly PayMethod[]>; events: CheckoutEvents }) {
  const [purchase, setPurchase] = useState<Purchase | null>(null);
  if (purchase) return <CheckoutPayment purchase={purchase} events={events} onRestart={() => setPurchase(null)} />;
  return <CheckoutMethod item={item} methods={methods} events={events} onBought={setPurchase} />;
}

function CheckoutMethod({
  item,
  methods: methodsQuery,
  events,
  onBought,
}: {
  item: CheckoutItem;
  methods: QueryLike<readonly PayMethod[]>;
  events: CheckoutEvents;
  onBought: (purchase: Purchase) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const queryClient = useQueryClient();
  const buyDynamic = useBuyDynamic();
  const buyStatic = useBuyStatic();
  const buying = buyDynamic.isPending || buyStatic.isPending;
  const [picked, setPicked] = useState<PayMethod | undefined>(undefined);
  // A failed list offers nothing to pay with (and says why); it is not "no method enabled".
  const methods = methodsQuery.isError ? [] : (methodsQuery.data ?? []);
  // The first offered method is preselected; a pick survives the list reloading.
  const method = picked && methods.includes(picked) ? picked : methods[0];
  // And so does the preselection: a method enabled meanwhile may come first in the reloaded list, and
  // the customer, who saw (and maybe clicked) the one shown selected, must not pay with another.
  // Recorded while rendering (React's pattern for state derived from props), not in an effect.
  if (method && method !== picked) setPicked(method);
  const price = item.kind === 'dynamic' ? formatMoney(item.pkg.price, item.pkg.currency, lang) : formatMoney(item.unitPrice * item.body.quantity, item.currency, lang);

  const choose = (value: PayMethod) => {
    setPicked(value);
    events.onMethod(value);
  };

  const pay = () => {
    if (!method) return;
    events.onMethod(method);
    const onSuccess = (purchase: Purchase) => {
      // The provider's page opens in a new tab; the payment step keeps a button for when it was blocked.
      if (purchase.payment.type === 'redirect') browser.openTab(purchase.payment.url, 'noopener');
      onBought(purchase);
    };
    if (item.kind === 'dynamic') buyDynamic.mutate({ goodsId: item.pkg.id, payMethod: method }, { onSuccess });
    // The IPs are reserved with the order (or the stock ran out meanwhile): the stock shown is stale either way.
    else buyStatic.mutate({ ...item.body, payMethod: method }, { onSuccess, onSettled: () => void queryClient.invalidateQueries({ queryKey: staticRegionsKey }) });
  };

  return (
    <div className="checkout" data-testid="checkout-method">
      <CheckoutSteps current={0} />
      <div className="checkout__package">
        <div>
          <div className="checkout__package-name">{item.kind === 'dynamic' ? localizedName(item.pkg.name, lang) : localizedName(item.region, lang)}</div>
          <div className="checkout__package-meta">
            {item.kind === 'dynamic'
              ? t('buy.checkout.packageMeta', { traffic: formatBytes(item.pkg.bytes, lang), days: item.pkg.validityDays })
              : t('buy.static.checkoutMeta', { business: localizedName(item.business, lang), quantity: item.body.quantity, days: item.body.days })}
          </div>
        </div>
        <div className="checkout__package-price">{price}</div>
      </div>
      <PayMethodChoice query={methodsQuery} value={method} onChange={choose} />
      <div className="checkout__total">
        <span>{t('buy.checkout.total')}</span>
        <strong>{price}</strong>
      </div>
      <Button type="primary" size="large" block icon={<LockOutlined />} disabled={!method} loading={buying} onClick={pay} data-testid="checkout-pay">
        {buying ? t('buy.checkout.creating') : t('buy.checkout.pay', { amount: price })}
      </Button>
      <Typography.Paragraph type="secondary" className="checkout__note">
        {item.kind === 'static' ? t('buy.checkout.staticNote', { minutes: openMinutes('static') }) : t('buy.checkout.note', { minutes: openMinutes('dynamic') })}
      </Typography.Paragraph>
    </div>
  );
}

/** How long an order of this kind stays open unpaid (a static one holds its IPs, so it lives shorter). */
const openMinutes = (kind: OrderKind) => (kind === 'static' ? STATIC_ORDER_TTL_MINUTES : ORDER_TTL_MINUTES);

function CheckoutPayment({ purchase, events, onRestart }: { purchase: Purchase; events: CheckoutEvents; onRestart: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const order: OrderDto = useOrderStatus(purchase.order);
  const { onPaid } = events;

  useEffect(() => {
    if (order.status !== 'paid') return;
    onPaid();
    void queryClient.invalidateQueries({ queryKey: trafficKey });
    void queryClient.invalidateQueries({ queryKey: staticProxiesKey });
  }, [order.status, onPaid, queryClient]);

  const settled = order.status !== 'pending';
  return (
    <div className="checkout" data-testid="checkout-payment">
      <CheckoutSteps current={order.status === 'paid' ? 2 : 1} failed={settled && order.status !== 'paid'} />
      <PaymentStep order={order} payment={order.payment ?? purchase.payment} onRestart={onRestart} onClose={events.onClose} />
      {!settled ? (
        <Typography.Paragraph type="secondary" className="checkout__note">
          {t('buy.checkout.leaveHint', { minutes: openMinutes(order.kind) })}
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
