import type { ProxyEndpoint } from '@resi/contract';
import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QueryState, type QueryLike } from '@/components/query-state';

/** Where to point a tool, and how the username picks the exit: `ACCOUNT-country-…-session-…-life-…`. */
export function EndpointCard({ endpoint: query }: { endpoint: QueryLike<ProxyEndpoint> }) {
  const { t } = useTranslation();
  const copyable = { tooltips: [t('proxy.copy'), t('proxy.copied')] };
  return (
    <Card variant="borderless" className="surface-card" title={t('proxy.endpoint.title')} data-testid="proxy-endpoint">
      <QueryState query={query} errorTitle={t('proxy.endpoint.failed')}>
        {(endpoint) => (
          <Descriptions column={1} size="small" colon={false} className="endpoint-list">
            <Descriptions.Item label={t('proxy.endpoint.host')}>
              <Typography.Text copyable={copyable} className="mono" data-testid="endpoint-host">
                {endpoint.host}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('proxy.endpoint.httpPort')}>
              <Typography.Text copyable={copyable} className="mono">
                {String(endpoint.httpPort)}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('proxy.endpoint.socksPort')}>
              <Typography.Text copyable={copyable} className="mono">
                {String(endpoint.socksPort)}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        )}
      </QueryState>
      <div className="username-syntax">
        <div className="username-syntax__title">{t('proxy.syntax.title')}</div>
        <code className="username-syntax__example">ACCOUNT-country-us-state-ca-city-losangeles-session-a1b2c3d4-life-10</code>
        <ul className="username-syntax__list">
          <li>{t('proxy.syntax.region')}</li>
          <li>{t('proxy.syntax.session')}</li>
          <li>{t('proxy.syntax.rotating')}</li>
        </ul>
      </div>
    </Card>
  );
}
