import { PAY_METHODS } from '@resi/contract';
import { Alert, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState } from '@/components/query-state';
import { usePayConfig } from '../api/get-pay-config';
import { PayMethodCard } from '../components/pay-method-card';

/** /manage/pay: one card per payment method, in the order the buy page offers them. */
export default function PaymentSettingsPage() {
  const { t } = useTranslation();
  const config = usePayConfig();
  return (
    <div data-testid="payment-settings">
      <Alert type="info" showIcon title={t('admin.pay.intro')} className="page-intro" />
      <QueryState query={config} rows={8} errorTitle={t('admin.pay.failed')}>
        {(methods) => (
          <Row gutter={[20, 20]}>
            {PAY_METHODS.flatMap((m) => methods.filter((c) => c.method === m)).map((c) => (
              <Col key={c.method} xs={24} xl={12}>
                <PayMethodCard config={c} />
              </Col>
            ))}
          </Row>
        )}
      </QueryState>
    </div>
  );
}
