import type { CreatedApiKeyDto } from '@resi/contract';
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';
import { curlExample } from './api-key-values';

/**
 * The new key's secret, the only time it is shown: the server keeps only its hash. Closed by its button alone, so
 * a stray click beside it does not lose the key before it is copied. The caller unmounts it on close rather than
 * hiding it: a closing dialog keeps its last content in the page until its animation ends, and the secret should
 * leave at once.
 */
export function ApiKeySecretModal({ created, onClose }: { created: CreatedApiKeyDto; onClose: () => void }) {
  const { t } = useTranslation();
  const curl = curlExample(window.location.origin, created.key);
  return (
    <Modal
      open
      onCancel={onClose}
      onOk={onClose}
      maskClosable={false}
      title={t('apiKeys.secret.title', { name: created.name })}
      okText={t('apiKeys.secret.done')}
      okButtonProps={{ 'data-testid': 'api-key-secret-done' } as never}
      // The key is made: closing is all that is left, so no Cancel beside it.
      footer={(_, { OkBtn }) => <OkBtn />}
      data-testid="api-key-secret"
    >
      <Alert type="warning" showIcon title={t('apiKeys.secret.warning')} className="modal-hint" />
      <div className="api-key-secret" data-testid="api-key-secret-value">
        <CopyableCode value={created.key} />
      </div>
      <Typography.Paragraph type="secondary" className="api-key-secret__try">
        {t('apiKeys.secret.try')}
      </Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: curl, tooltips: [t('commerce.copy'), t('commerce.copied')] }} className="mono api-key-secret__curl" data-testid="api-key-secret-curl">
        {curl}
      </Typography.Paragraph>
    </Modal>
  );
}
