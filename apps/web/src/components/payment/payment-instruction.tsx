import { ExportOutlined, WarningOutlined } from '@ant-design/icons';
import type { OrderDto, PaymentInstruction } from '@resi/contract';
import { Alert, Button, Descriptions, QRCode, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What the customer does to pay, as the server said (docs/api.md#payment-instructions): a provider page, a QR code,
 * a USDT address with the exact amount, or the operator's written instructions.
 */
export function PaymentInstructionView({ order, payment }: { order: Pick<OrderDto, 'orderNo' | 'payMethod'>; payment: PaymentInstruction }) {
  const { t } = useTranslation();
  switch (payment.type) {
    case 'redirect':
      return (
        <div className="pay-instruction pay-instruction--redirect" data-testid="pay-redirect">
          <Typography.Paragraph>{t('commerce.payment.redirect.text')}</Typography.Paragraph>
          <Button type="primary" icon={<ExportOutlined />} href={payment.url} target="_blank" rel="noopener noreferrer" data-testid="open-payment-page">
            {t('commerce.payment.redirect.open')}
          </Button>
          <Typography.Paragraph type="secondary" className="pay-instruction__hint">
            {t('commerce.payment.redirect.hint')}
          </Typography.Paragraph>
        </div>
      );
    case 'qr':
      return (
        <div className="pay-instruction pay-instruction--qr" data-testid="pay-qr">
          <QRCode value={payment.text} type="svg" size={196} bordered data-testid="pay-qr-code" />
          <div className="pay-instruction__qr-side">
            <Typography.Paragraph>
              {order.payMethod === 'alipay' ? t('commerce.payment.qr.alipay') : t('commerce.payment.qr.text')}
            </Typography.Paragraph>
            {payment.url ? (
              <Button icon={<ExportOutlined />} href={payment.url} target="_blank" rel="noopener noreferrer" data-testid="open-payment-page">
                {t('commerce.payment.qr.open')}
              </Button>
            ) : null}
          </div>
        </div>
      );
    case 'address':
      return (
        <div className="pay-instruction pay-instruction--address" data-testid="pay-address">
          <Alert
            type="warning"
            showIcon
            icon={<WarningOutlined />}
            title={t('commerce.payment.address.warningTitle', { amount: payment.amount, asset: payment.asset })}
            description={t('commerce.payment.address.warning', { network: payment.network, asset: payment.asset })}
          />
          <div className="pay-instruction__address-body">
            <QRCode value={payment.address} type="svg" size={148} bordered />
            <Descriptions
              column={1}
              size="small"
              className="pay-instruction__details"
              items={[
                { key: 'network', label: t('commerce.payment.address.network'), children: t('commerce.payment.address.networkValue', { network: payment.network }) },
                {
                  key: 'amount',
                  label: t('commerce.payment.address.amount'),
                  children: (
                    <Typography.Text strong copyable={{ text: payment.amount, tooltips: [t('commerce.copy'), t('commerce.copied')] }} className="pay-instruction__amount" data-testid="pay-amount">
                      {payment.amount} {payment.asset}
                    </Typography.Text>
                  ),
                },
                {
                  key: 'address',
                  label: t('commerce.payment.address.address'),
                  children: (
                    <Typography.Text code copyable={{ tooltips: [t('commerce.copy'), t('commerce.copied')] }} className="pay-instruction__address" data-testid="pay-address-value">
                      {payment.address}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          </div>
        </div>
      );
    case 'instructions':
      return (
        <div className="pay-instruction pay-instruction--text" data-testid="pay-instructions">
          <div className="pay-instruction__text">{payment.text}</div>
          <Typography.Paragraph type="secondary" className="pay-instruction__hint">
            {t('commerce.payment.instructions.hint')}
          </Typography.Paragraph>
        </div>
      );
  }
}
