import type { ApiKeyDto } from '@resi/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';

/*
 * Cells of the API key lists, the customer's (Personal info) and the admin's (a user's detail): two facts in one
 * column where they belong together, so the lists fit a laptop's width (docs/console.md#menu).
 */

/** The key's name, and the prefix programs' logs show under it (the rest of the key is never shown again). */
export function ApiKeyNameCell({ apiKey }: { apiKey: Pick<ApiKeyDto, 'name' | 'prefix'> }) {
  return (
    <div className="cell-user cell-user--main">
      <span data-testid="api-key-name">{apiKey.name}</span>
      <span className="mono muted" data-testid="api-key-prefix">
        {apiKey.prefix}…
      </span>
    </div>
  );
}

/** What the key may do, one tag per scope, named in the interface language with the API's own word beside it. */
export function ApiKeyScopeTags({ scopes }: { scopes: ApiKeyDto['scopes'] }) {
  const { t } = useTranslation();
  return (
    <div className="api-key-scopes" data-testid="api-key-scopes">
      {scopes.map((scope) => (
        <Tag key={scope} color={scope === 'buy' ? 'orange' : 'blue'} title={scope} data-scope={scope}>
          {t(`apiKeys.scope.${scope}.name`)}
        </Tag>
      ))}
    </div>
  );
}

/** When a program last used the key and from which address; "Never" before the first call. */
export function ApiKeyLastUsedCell({ apiKey }: { apiKey: Pick<ApiKeyDto, 'lastUsedAt' | 'lastUsedIp'> }) {
  const { t } = useTranslation();
  if (!apiKey.lastUsedAt) return <span className="muted">{t('apiKeys.neverUsed')}</span>;
  return (
    <div className="cell-user" data-testid="api-key-last-used">
      <span className="nowrap">{formatDateTime(apiKey.lastUsedAt)}</span>
      {apiKey.lastUsedIp ? <span className="mono muted">{apiKey.lastUsedIp}</span> : null}
    </div>
  );
}
