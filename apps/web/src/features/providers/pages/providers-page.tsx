import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shopCurrency, useGoods } from '@/api/get-goods';
import { combineQueries, QueryState } from '@/components/query-state';
import { useProviders } from '../api/get-providers';
import { ProviderFormModal, type ProviderEditing } from '../components/provider-form-modal';
import { newProviderValues, providerValues } from '../components/provider-values';
import { ProvidersTable } from '../components/providers-table';
import { SupplySettingsCard } from '../components/supply-settings-card';

/**
 * /manage/supply: the upstream providers rotating traffic leaves through (docs/gateway.md#providers), their
 * live health, usage and cost, and the gateway's own settings beside them. The list is asked again every 10 s.
 */
export default function ProvidersPage() {
  const { t } = useTranslation();
  const providers = useProviders();
  // A new provider's cost starts in the shop's currency (the contract's costs are in it): the catalogue's prices carry it.
  const goods = useGoods();
  const loaded = combineQueries([providers, goods] as const);
  const [editing, setEditing] = useState<ProviderEditing | null>(null);

  const add = () => {
    if (!loaded.data) return;
    const [items, shop] = loaded.data;
    setEditing({ id: null, values: newProviderValues(shopCurrency(shop) ?? items[0]?.costPerGb.currency ?? '') });
  };

  return (
    <Flex vertical gap={16} data-testid="providers-page">
      <Alert type="info" showIcon className="page-lead" title={t('providers.lead')} />
      <Card
        variant="borderless"
        className="surface-card"
        title={t('providers.list.title')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={add} disabled={loaded.data === undefined} data-testid="provider-add">
            {t('providers.add')}
          </Button>
        }
      >
        <QueryState query={loaded} rows={6} errorTitle={t('providers.list.loadFailed')}>
          {([items]) => <ProvidersTable providers={items} onEdit={(p) => setEditing({ id: p.id, values: providerValues(p) })} />}
        </QueryState>
      </Card>
      <SupplySettingsCard />
      <ProviderFormModal editing={editing} onClose={() => setEditing(null)} />
    </Flex>
  );
}
