import { PAY_METHODS } from '@resi/contract';
import { Alert, Col, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePayConfig } from '../api/get-pay-config';
import { PayMethodCard } from '../components/pay-method-card';

/** /manage/pay: one card per payment method, in the order the buy page offers them. */
export default function PaymentSettingsPage() {
  const { t } = useTranslation();
  const config = usePayConfig();
  if (config.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  const methods = config.data ?? [];
  const ordered = PAY_METHODS.flatMap((m) => methods.filter((c) => c.method === m));
  return (
    <div data-testid="payment-settings">
      <Alert type="info" showIcon title={t('admin.pay.intro')} className="page-intro" />
      <Row gutter={[20, 20]}>
        {ordered.map((c) => (
          <Col key={c.method} xs={24} xl={12}>
            <PayMethodCard config={c} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
