import type { CreatedWebhookDto } from '@resi/contract';
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';

/** What a receiver computes to check a delivery (docs/api.md#webhooks); code, so the same in every language. */
export const SIGNATURE_FORMULA = 'X-Resi-Signature = "v1=" + hex(HMAC-SHA256(secret, X-Resi-Timestamp + "." + body))';

/**
 * The new endpoint's signing secret, the only time it is shown, with how a receiver checks a delivery with it.
 * Closed by its button alone and unmounted on close, as the API key's secret is (api-key-secret-modal.tsx).
 */
export function WebhookSecretModal({ created, onClose }: { created: CreatedWebhookDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      onCancel={onClose}
      onOk={onClose}
      maskClosable={false}
      title={t('webhooks.secret.title')}
      okText={t('webhooks.secret.done')}
      okButtonProps={{ 'data-testid': 'webhook-secret-done' } as never}
      footer={(_, { OkBtn }) => <OkBtn />}
      data-testid="webhook-secret"
    >
      <Alert type="warning" showIcon title={t('webhooks.secret.warning')} className="modal-hint" />
      <Typography.Paragraph type="secondary" className="webhook-secret__url mono">
        {created.url}
      </Typography.Paragraph>
      <div className="api-key-secret" data-testid="webhook-secret-value">
        <CopyableCode value={created.secret} />
      </div>
      <Typography.Paragraph strong className="webhook-secret__verify">
        {t('webhooks.secret.verifyTitle')}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('webhooks.secret.verifyHeaders')}</Typography.Paragraph>
      <pre className="webhook-code" data-testid="webhook-secret-formula">
        {SIGNATURE_FORMULA}
      </pre>
      <Typography.Paragraph type="secondary">{t('webhooks.secret.verifyFresh')}</Typography.Paragraph>
    </Modal>
  );
}
