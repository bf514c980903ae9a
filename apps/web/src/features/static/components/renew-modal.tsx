import { LockOutlined } from '@ant-design/icons';
import { normalizeLang, type PayMethod, type StaticPriceDto, type StaticProxyDto } from '@resi/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrderStatus } from '@/api/check-order';
import { staticProxiesKey } from '@/api/get-static-proxies';
import { PayMethodChoice } from '@/components/payment/pay-method-choice';
import { PaymentStep } from '@/components/payment/payment-step';
import { QueryState, type QueryLike } from '@/components/query-state';
import { browser } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import { staticOrdersKey } from '../api/get-static-orders';
import { useRenewStatic, type Purchase } from '../api/renew-static';
import { renewOptions } from '../lib/renew-prices';

interface RenewModalProps {
  /** The IPs to renew; null = closed. */
  proxies: StaticProxyDto[] | null;
  prices: QueryLike<StaticPriceDto[]>;
  methods: QueryLike<readonly PayMethod[]>;
  onClose: () => void;
}

/** Renewing static IPs: days from the price list and a pay method, then the same payment step as a traffic purchase. */
export function RenewModal({ proxies, prices, methods, onClose }: RenewModalProps) {
  const { t } = useTranslation();
  return (
    <Modal open={proxies !== null} onCancel={onClose} title={t('static.renew.title')} footer={null} width={680} destroyOnHidden mask={{ closable: false }} className="checkout-modal" data-testid="renew-modal">
      {proxies ? <Renew proxies={proxies} prices={prices} methods={methods} onClose={onClose} /> : null}
    </Modal>
  );
}

function Renew({ proxies, prices, methods, onClose }: RenewModalProps & { proxies: StaticProxyDto[] }) {
  const { t } = useTranslation();
  const [purchase, setPurchase] = useState<Purchase | null>(null);
  if (purchase) return <RenewPayment purchase={purchase} onRestart={() => setPurchase(null)} onClose={onClose} />;
  return (
    <QueryState query={prices} errorTitle={t('static.renew.pricesFailed')}>
      {(list) => <RenewChoice proxies={proxies} prices={list} methods={methods} onBought={setPurchase} />}
    </QueryState>
  );
}

function RenewChoice({ proxies, prices, methods: methodsQuery, onBought }: { proxies: StaticProxyDto[]; prices: StaticPriceDto[]; methods: QueryLike<readonly PayMethod[]>; onBought: (p: Purchase) => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const renew = useRenewStatic();
  const options = renewOptions(proxies, prices);
  const [days, setDays] = useState<number | undefined>(options[0]?.days);
  const [picked, setPicked] = useState<PayMethod | undefined>(undefined);
  const methods = methodsQuery.isError ? [] : (methodsQuery.data ?? []);
  const method = picked && methods.includes(picked) ? picked : methods[0];
  const option = options.find((o) => o.days === days);
  const total = option ? formatMoney(option.total, option.currency, lang) : null;

  const pay = () => {
    if (!method || !option) return;
    renew.mutate(
      { staticProxyIds: proxies.map((p) => p.id), days: option.days, payMethod: method },
      {
        onSuccess: (purchase) => {
          if (purchase.payment.type === 'redirect') browser.openTab(purchase.payment.url, 'noopener');
          onBought(purchase);
        },
      },
    );
  };

  return (
    <div className="checkout" data-testid="renew-choice">
      <div className="checkout__package">
        <div>
          <div className="checkout__package-name">{t('static.renew.ips', { count: proxies.length })}</div>
          <div className="checkout__package-meta mono">{proxies.map((p) => p.ip).join(', ')}</div>
        </div>
      </div>
      {options.length === 0 ? (
        <Alert type="warning" showIcon title={t('static.renew.noPrice')} data-testid="renew-no-price" />
      ) : (
        <>
          <Typography.Title level={5} className="checkout__section-title">
            {t('static.renew.days')}
          </Typography.Title>
          <Select
            className="full-width static-renew__days"
            value={days}
            onChange={setDays}
            options={options.map((o) => ({ value: o.days, label: t('static.renew.daysOption', { days: o.days, price: formatMoney(o.total, o.currency, lang) }) }))}
            data-testid="renew-days"
          />
        </>
      )}
      <PayMethodChoice query={methodsQuery} value={method} onChange={setPicked} />
      <div className="checkout__total">
        <span>{t('buy.checkout.total')}</span>
        <strong data-testid="renew-total">{total ?? t('commerce.none')}</strong>
      </div>
      <Button type="primary" size="large" block icon={<LockOutlined />} disabled={!method || !option} loading={renew.isPending} onClick={pay} data-testid="renew-pay">
        {renew.isPending ? t('buy.checkout.creating') : total ? t('buy.checkout.pay', { amount: total }) : t('static.renew.submit')}
      </Button>
    </div>
  );
}

function RenewPayment({ purchase, onRestart, onClose }: { purchase: Purchase; onRestart: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const order = useOrderStatus(purchase.order);

  useEffect(() => {
    if (order.status !== 'paid') return;
    void queryClient.invalidateQueries({ queryKey: staticProxiesKey });
    void queryClient.invalidateQueries({ queryKey: staticOrdersKey });
  }, [order.status, queryClient]);

  return (
    <div className="checkout" data-testid="checkout-payment">
      <PaymentStep order={order} payment={order.payment ?? purchase.payment} onRestart={onRestart} onClose={onClose} />
      {order.status === 'paid' ? (
        <div className="checkout__done">
          <Button onClick={onClose} data-testid="checkout-close">
            {t('buy.checkout.close')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
