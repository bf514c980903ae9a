import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { PackageDto, PayMethod } from '@resi/contract';
import { Card, Col, Empty, Row, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PayMethodLabel } from '@/components/pay-method-label';
import { combineQueries, QueryState } from '@/components/query-state';
import { useBusinesses } from '@/api/get-businesses';
import { useStaticRegions } from '@/api/get-static-regions';
import { useGoods } from '@/api/get-goods';
import { usePayMethods } from '@/api/get-pay-methods';
import { useTraffic } from '@/api/get-traffic';
import { CheckoutModal, type CheckoutEvents, type CheckoutItem } from '../components/checkout-modal';
import { StaticPurchase } from '../components/static-purchase';
import { PackageCard } from '../components/package-card';
import { TrafficBalanceCard } from '@/components/traffic-balance-card';
import { usePurchaseIntention } from '../hooks/use-purchase-intention';

/** /center/buy: traffic balance, the rotating-traffic packages or static IPs (a tab each), and the checkout. */
export default function BuyPage() {
  const { t } = useTranslation();
  const traffic = useTraffic();
  const goods = useGoods();
  const methods = usePayMethods();
  const intention = usePurchaseIntention();
  const [checkout, setCheckout] = useState<CheckoutItem | null>(null);
  const [tab, setTab] = useState<'traffic' | 'static'>('traffic');

  const events = useMemo<CheckoutEvents>(
    () => ({
      onMethod: (method: PayMethod) => intention.choose(method),
      onPaid: () => intention.paid(),
      onClose: () => {
        intention.close();
        setCheckout(null);
      },
    }),
    [intention],
  );

  const open = (pkg: PackageDto) => {
    intention.open(pkg.id);
    setCheckout({ kind: 'dynamic', pkg });
  };
  const openStatic = (item: CheckoutItem) => {
    intention.openStatic();
    setCheckout(item);
  };

  const offered = methods.data ?? [];

  return (
    <>
      <Row gutter={[20, 20]}>
        <Col span={24}>
          <TrafficBalanceCard traffic={traffic} />
        </Col>
        <Col span={24}>
          <Card
            variant="borderless"
            className="surface-card"
            title={tab === 'traffic' ? t('buy.packages.title') : t('buy.static.title')}
            tabList={[
              { key: 'traffic', label: t('buy.tabs.traffic') },
              { key: 'static', label: t('buy.tabs.static') },
            ]}
            activeTabKey={tab}
            onTabChange={(key) => setTab(key === 'static' ? 'static' : 'traffic')}
            extra={
              offered.length > 0 ? (
                <Space size={14} wrap className="accepted-methods">
                  <span className="muted">
                    <SafetyCertificateOutlined /> {t('buy.packages.accepted')}
                  </span>
                  {offered.map((m) => (
                    <PayMethodLabel key={m} method={m} showDemo={false} />
                  ))}
                </Space>
              ) : null
            }
          >
            {tab === 'traffic' ? (
              <>
            <p className="muted packages-lead">{t('buy.packages.lead')}</p>
                <QueryState query={goods} rows={6} errorTitle={t('buy.packages.failed')}>
                  {({ packages }) =>
                    packages.length === 0 ? (
                      <Empty description={t('buy.packages.empty')} />
                    ) : (
                      <div className="package-grid" data-testid="packages">
                        {packages.map((pkg) => (
                          <PackageCard key={pkg.id} pkg={pkg} onBuy={open} />
                        ))}
                      </div>
                    )
                  }
                </QueryState>
              </>
            ) : (
              <StaticTab prices={goods} onBuy={openStatic} />
            )}
          </Card>
        </Col>
      </Row>
      <CheckoutModal item={checkout} methods={methods} events={events} />
    </>
  );
}

/** The static tab's data: the regions with their stock, the business lines, and the price list of GET /api/goods. */
function StaticTab({ prices, onBuy }: { prices: ReturnType<typeof useGoods>; onBuy: (item: CheckoutItem) => void }) {
  const { t } = useTranslation();
  const regions = useStaticRegions();
  const businesses = useBusinesses();
  return (
    <>
      <p className="muted packages-lead">{t('buy.static.lead')}</p>
      <QueryState query={combineQueries([regions, businesses, prices] as const)} rows={6} errorTitle={t('buy.static.failed')}>
        {([r, b, goods]) => <StaticPurchase regions={r} businesses={b} prices={goods.staticPrices} onBuy={onBuy} />}
      </QueryState>
    </>
  );
}
