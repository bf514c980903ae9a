import { CopyOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Popover, QRCode, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '@/lib/clipboard';
import { notify } from '@/lib/notify';

/** Copy and QR code for one link; `testId` prefixes the buttons' and the code's test ids. */
export function LinkActions({ url, testId }: { url: string; testId: string }) {
  const { t } = useTranslation();
  const copy = () =>
    void copyText(url).then((ok) => (ok ? notify.success(t('distributionManage.invite.copied')) : notify.error(t('distributionManage.invite.copyFailed'))));
  return (
    <Space size={4}>
      <Tooltip title={t('distributionManage.invite.copy')}>
        <Button size="small" icon={<CopyOutlined />} onClick={copy} aria-label={t('distributionManage.invite.copy')} data-testid={`${testId}-copy`} />
      </Tooltip>
      <Popover
        trigger="click"
        destroyOnHidden
        title={t('distributionManage.invite.qrTitle')}
        content={<QRCode value={url} size={180} data-testid={`${testId}-qr`} />}
      >
        <Button size="small" icon={<QrcodeOutlined />} aria-label={t('distributionManage.invite.qr')} data-testid={`${testId}-qr-button`} />
      </Popover>
    </Space>
  );
}
