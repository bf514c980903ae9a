import { AlipayCircleOutlined, BankOutlined, CreditCardOutlined, DollarCircleOutlined, ExperimentOutlined } from '@ant-design/icons';
import type { PayMethod } from '@resi/contract';
import { Space, Tag } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

export const PAY_METHOD_ICONS: Record<PayMethod, ComponentType<{ className?: string }>> = {
  card: CreditCardOutlined,
  alipay: AlipayCircleOutlined,
  'usdt-trc20': DollarCircleOutlined,
  manual: BankOutlined,
  sandbox: ExperimentOutlined,
};

/** A payment method as people read it: icon, translated name, and a "demo" tag on the sandbox. */
export function PayMethodLabel({ method, showDemo = true }: { method: PayMethod | null; showDemo?: boolean }) {
  const { t } = useTranslation();
  if (!method) return <span className="muted">{t('commerce.none')}</span>;
  const Icon = PAY_METHOD_ICONS[method];
  return (
    <Space size={6} className={`pay-method-label pay-method-label--${method}`}>
      <Icon className="pay-method-label__icon" />
      <span>{t(`commerce.payMethod.${method}`)}</span>
      {showDemo && method === 'sandbox' ? <Tag color="orange">{t('commerce.demo')}</Tag> : null}
    </Space>
  );
}
