import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { PackageDto, PayMethod } from '@resi/contract';
import { Card, Col, Empty, Row, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PayMethodLabel } from '@/components/pay-method-label';
import { QueryState } from '@/components/query-state';
import { useGoods } from '@/api/get-goods';
import { usePayMethods } from '@/api/get-pay-methods';
import { useTraffic } from '@/api/get-traffic';
import { CheckoutModal, type CheckoutEvents } from '../components/checkout-modal';
import { PackageCard } from '../components/package-card';
import { TrafficBalanceCard } from '@/components/traffic-balance-card';
import { usePurchaseIntention } from '../hooks/use-purchase-intention';

/** /center/buy: traffic balance, the rotating-traffic packages, and the checkout. */
export default function BuyPage() {
  const { t } = useTranslation();
  const traffic = useTraffic();
  const goods = useGoods();
  const methods = usePayMethods();
  const intention = usePurchaseIntention();
  const [checkout, setCheckout] = useState<PackageDto | null>(null);

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
    setCheckout(pkg);
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
            title={t('buy.packages.title')}
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
          </Card>
        </Col>
      </Row>
      <CheckoutModal pkg={checkout} methods={methods} events={events} />
    </>
  );
}
