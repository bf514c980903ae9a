import { DeleteOutlined } from '@ant-design/icons';
import { normalizeLang, type ApiKeyDto } from '@resi/contract';
import { Button, Popconfirm, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiKeyLastUsedCell, ApiKeyNameCell, ApiKeyScopeTags } from '@/components/api-key-cells';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useRevokeUserApiKey } from '../api/revoke-api-key';

/**
 * A user's API keys in their detail (docs/api.md#programs): what each may do and its use today, and revoking one,
 * a leaked key say, which stops it at once. The secrets are never shown here: the server keeps only their hashes.
 */
export function UserApiKeys({ keys }: { keys: ApiKeyDto[] }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const revoke = useRevokeUserApiKey();
  return (
    <Table<ApiKeyDto>
      size="small"
      rowKey="id"
      dataSource={keys}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('apiKeys.admin.empty') }}
      data-testid="user-api-keys"
      columns={[
        { title: t('apiKeys.columns.key'), key: 'key', render: (_v, k) => <ApiKeyNameCell apiKey={k} /> },
        { title: t('apiKeys.columns.scopes'), key: 'scopes', render: (_v, k) => <ApiKeyScopeTags scopes={k.scopes} /> },
        { title: t('apiKeys.columns.lastUsed'), key: 'lastUsed', render: (_v, k) => <ApiKeyLastUsedCell apiKey={k} /> },
        { title: t('apiKeys.columns.callsToday'), key: 'calls', align: 'right', className: 'nowrap', render: (_v, k) => formatCount(k.callsToday, lang) },
        {
          title: t('apiKeys.columns.actions'),
          key: 'actions',
          render: (_v, k) => (
            <Popconfirm
              title={t('apiKeys.admin.revokeConfirm', { name: k.name })}
              description={t('apiKeys.admin.revokeHint')}
              okText={t('apiKeys.revoke.ok')}
              cancelText={t('apiKeys.revoke.cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'user-api-key-revoke-ok' } as never}
              // The revoke reloads the user's detail (useRevokeUserApiKey), which then lists the key no more.
              onConfirm={() => revoke.mutateAsync(k.id).then((res) => notify.success(res.message || t('apiKeys.revoke.done')), () => undefined)}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="user-api-key-revoke">
                {t('apiKeys.revoke.ok')}
              </Button>
            </Popconfirm>
          ),
        },
      ]}
    />
  );
}
