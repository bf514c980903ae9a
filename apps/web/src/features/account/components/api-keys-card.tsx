import { DeleteOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { API_KEYS_MAX, normalizeLang, type ApiKeyDto, type CreatedApiKeyDto } from '@resi/contract';
import { Button, Card, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGoods } from '@/api/get-goods';
import { ApiKeyLastUsedCell, ApiKeyNameCell, ApiKeyScopeTags } from '@/components/api-key-cells';
import { combineQueries, QueryState, tableEmptyText } from '@/components/query-state';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { formatCount, formatDateTime, formatMoney } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { ApiKeySecretModal } from './api-key-secret-modal';
import { shopCurrency } from './api-key-values';

// The form (with antd's date picker) is fetched when first opened: most visits to Personal info make no key.
const ApiKeyCreateModal = lazy(() => import('./api-key-create-modal').then((m) => ({ default: m.ApiKeyCreateModal })));

/** ISO 4217's "no currency" (drawn as ¤): a cap is still shown when the shop has nothing for sale to name its currency. */
const NO_CURRENCY = 'XXX';

/**
 * The customer's API keys (docs/api.md#programs): what each may do and where from, its use today, revoking one;
 * "Create key" opens the form, and the new key's secret is shown once.
 */
export function ApiKeysCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const keys = useApiKeys();
  const goods = useGoods();
  const loaded = combineQueries([keys, goods] as const);
  const revoke = useRevokeApiKey();
  const actionsPin = useActionsPin();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKeyDto | null>(null);
  const currency = goods.data ? shopCurrency(goods.data) : null;
  const full = (keys.data?.length ?? 0) >= API_KEYS_MAX;
  const none = <span className="muted">{t('commerce.none')}</span>;

  const columns: TableColumnsType<ApiKeyDto> = [
    { title: t('apiKeys.columns.key'), key: 'key', render: (_v, k) => <ApiKeyNameCell apiKey={k} /> },
    { title: t('apiKeys.columns.scopes'), key: 'scopes', render: (_v, k) => <ApiKeyScopeTags scopes={k.scopes} /> },
    {
      title: t('apiKeys.columns.expires'),
      key: 'expires',
      className: 'nowrap',
      render: (_v, k) => {
        if (!k.expiresAt) return <span className="muted">{t('apiKeys.card.noExpiry')}</span>;
        const date = formatDateTime(k.expiresAt);
        return new Date(k.expiresAt).getTime() <= Date.now() ? <Tag color="red">{t('apiKeys.card.expired', { date })}</Tag> : date;
      },
    },
    {
      title: t('apiKeys.columns.allowlist'),
      key: 'allowlist',
      render: (_v, k) =>
        k.allowlist.length === 0 ? (
          <span className="muted">{t('apiKeys.card.anyAddress')}</span>
        ) : (
          <div className="api-key-addresses mono" data-testid="api-key-allowlist">
            {k.allowlist.map((address) => (
              <span key={address}>{address}</span>
            ))}
          </div>
        ),
    },
    {
      title: t('apiKeys.columns.spendCap'),
      key: 'cap',
      render: (_v, k) => {
        if (!k.scopes.includes('buy') || k.dailySpendCap === null) return none;
        const money = (amount: number) => formatMoney(amount, currency ?? NO_CURRENCY, lang);
        return (
          <div className="cell-user" data-testid="api-key-cap">
            <span className="nowrap">{money(k.dailySpendCap)}</span>
            <span className="muted nowrap">{t('apiKeys.card.spentToday', { amount: money(k.spentToday) })}</span>
          </div>
        );
      },
    },
    {
      // Today's calls over the last use: one column, so the table fits a laptop's width (docs/console.md#menu).
      title: t('apiKeys.columns.use'),
      key: 'use',
      render: (_v, k) => (
        <div className="cell-user">
          <span className="nowrap" data-testid="api-key-calls">
            {t('apiKeys.card.callsToday', { calls: formatCount(k.callsToday, lang) })}
          </span>
          <ApiKeyLastUsedCell apiKey={k} />
        </div>
      ),
    },
    {
      title: t('apiKeys.columns.actions'),
      key: 'actions',
      fixed: actionsPin,
      render: (_v, k) => (
        <Popconfirm
          title={t('apiKeys.revoke.confirm', { name: k.name })}
          description={t('apiKeys.revoke.hint')}
          okText={t('apiKeys.revoke.ok')}
          cancelText={t('apiKeys.revoke.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'api-key-revoke-ok' } as never}
          onConfirm={() => revoke.mutateAsync(k.id).then((res) => notify.success(res.message || t('apiKeys.revoke.done')), () => undefined)}
        >
          <Button type="link" danger icon={<DeleteOutlined />} data-testid="api-key-revoke">
            {t('apiKeys.revoke.ok')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  // Not max-content: auto widths wrap what may wrap and scroll sideways inside the card only on a phone.
  const table = (rows: ApiKeyDto[], loading: boolean) => (
    <Table<ApiKeyDto>
      rowKey="id"
      dataSource={rows}
      columns={columns}
      pagination={false}
      scroll={{ x: true }}
      locale={{ emptyText: tableEmptyText(loading, t('apiKeys.card.empty')) }}
      data-testid="api-keys-table"
    />
  );

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={
        <Space>
          <KeyOutlined />
          {t('apiKeys.card.title')}
        </Space>
      }
      extra={
        <Button type="primary" icon={<PlusOutlined />} disabled={!loaded.data || full} onClick={() => setCreating(true)} data-testid="api-key-create">
          {t('apiKeys.card.create')}
        </Button>
      }
      data-testid="api-keys"
    >
      <Typography.Paragraph type="secondary">{t('apiKeys.card.lead')}</Typography.Paragraph>
      <QueryState query={loaded} placeholder={table([], true)} errorTitle={t('apiKeys.card.loadFailed')}>
        {([list]) => (
          <>
            {table(list, false)}
            <Typography.Paragraph type={full ? 'warning' : 'secondary'} className="api-keys-count" data-testid="api-keys-count">
              {t(full ? 'apiKeys.card.countFull' : 'apiKeys.card.count', { count: list.length, max: API_KEYS_MAX })}
            </Typography.Paragraph>
          </>
        )}
      </QueryState>
      {creating ? (
        <Suspense fallback={null}>
          <ApiKeyCreateModal
            open
            currency={currency}
            onClose={() => setCreating(false)}
            onCreated={(key) => {
              setCreating(false);
              setCreated(key);
            }}
          />
        </Suspense>
      ) : null}
      {created ? <ApiKeySecretModal created={created} onClose={() => setCreated(null)} /> : null}
    </Card>
  );
}
