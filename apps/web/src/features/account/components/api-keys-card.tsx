import { DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import { API_KEYS_MAX, normalizeLang, type ApiKeyDto, type CreatedApiKeyDto } from '@resi/contract';
import { Button, Popconfirm, Tag, type TableColumnsType } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shopCurrency, useGoods } from '@/api/get-goods';
import { ApiKeyLastUsedCell, ApiKeyNameCell, ApiKeyScopeTags } from '@/components/api-key-cells';
import { combineQueries } from '@/components/query-state';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { formatCount, formatDateTime, formatMoney } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { ApiKeySecretModal } from './api-key-secret-modal';
import { CappedListCard } from './capped-list-card';

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

  return (
    <CappedListCard
      icon={<KeyOutlined />}
      title={t('apiKeys.card.title')}
      lead={t('apiKeys.card.lead')}
      query={loaded}
      rowsOf={([list]) => list}
      columns={columns}
      emptyText={t('apiKeys.card.empty')}
      loadFailed={t('apiKeys.card.loadFailed')}
      max={API_KEYS_MAX}
      countText={(count, full) => t(full ? 'apiKeys.card.countFull' : 'apiKeys.card.count', { count, max: API_KEYS_MAX })}
      createLabel={t('apiKeys.card.create')}
      createTestId="api-key-create"
      onCreate={() => setCreating(true)}
      testId="api-keys"
    >
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
    </CappedListCard>
  );
}
