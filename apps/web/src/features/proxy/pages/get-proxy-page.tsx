import { UserAddOutlined } from '@ant-design/icons';
import { buildProxyLines, newSessionId } from '@resi/contract';
import { Button, Card, Col, Result, Row } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notify } from '@/lib/notify';
import { useProxyAccounts } from '@/api/get-proxy-accounts';
import { useProxyEndpoint } from '@/api/get-proxy-endpoint';
import { AllowlistEditor } from '@/components/program-access/allowlist-editor';
import { ApiLinkCard } from '@/components/program-access/api-link-card';
import { QueryState } from '@/components/query-state';
import { useSetRequirePassword } from '../api/set-require-password';
import { EndpointCard } from '../components/endpoint-card';
import { DEFAULT_LINE_SETTINGS, linesQuery, type LineSettings } from '../components/line-settings';
import { LineSettingsCard } from '../components/line-settings-card';
import { ProxyLinesCard } from '../components/proxy-lines-card';

/** /center/proxy: proxy lines for one of the customer's accounts, built exactly as the server exports them. */
export default function GetProxyPage() {
  const { t } = useTranslation();
  const accounts = useProxyAccounts();
  const endpoint = useProxyEndpoint();
  const [settings, setSettings] = useState<LineSettings>(DEFAULT_LINE_SETTINGS);
  // Bumped by "new sessions": sticky lines get fresh session ids.
  const [generation, setGeneration] = useState(0);
  const setRequirePassword = useSetRequirePassword();

  const list = accounts.data ?? [];
  // Until one is picked, the first active account (else the first) is used.
  const accountId = settings.accountId ?? (list.find((a) => a.status === 'active') ?? list[0])?.id;
  const account = list.find((a) => a.id === accountId);
  const query = linesQuery({ ...settings, accountId });
  const queryText = JSON.stringify(query);

  // Sticky lines' session ids are made here and named in the download, so the file holds these very lines.
  const shown = useMemo(() => {
    if (!query || !account || !endpoint.data) return { lines: [], query };
    const { accountId: _id, ...rest } = query;
    const sessions = rest.sticky === '1' ? Array.from({ length: rest.count }, newSessionId).join(',') : undefined;
    return { lines: buildProxyLines(account, { ...rest, sessions }, endpoint.data), query: { ...query, sessions } };
    // queryText stands for query; generation asks for new sessions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryText, account, endpoint.data, generation]);

  // "No proxy account yet" only from an answer that says so; loading and a failed request look different.
  // While loading, the settings as they will be (disabled): a shorter placeholder pushed the cards below it down
  // by a third of a phone's screen when the accounts came (layout shift, docs/console.md#first-load).
  const settingsPanel =
    accounts.isPending ? (
      <LineSettingsCard accounts={[]} settings={{ ...settings, accountId }} onChange={() => {}} loading />
    ) : accounts.data && accounts.data.length > 0 && !accounts.isError ? (
      <LineSettingsCard accounts={list} settings={{ ...settings, accountId }} onChange={(patch) => setSettings((s) => ({ ...s, ...patch }))} />
    ) : (
      <Card variant="borderless" className="surface-card" data-testid="proxy-accounts-state">
        <QueryState query={accounts} rows={8} errorTitle={t('proxy.accountsFailed')}>
          {() => (
            <div data-testid="no-accounts">
              <Result
                icon={<UserAddOutlined style={{ color: 'var(--brand-color)' }} />}
                title={t('proxy.noAccounts.title')}
                subTitle={t('proxy.noAccounts.description')}
                extra={
                  <Link to="/center/rotatingResidential">
                    <Button type="primary" data-testid="no-accounts-create">
                      {t('proxy.noAccounts.action')}
                    </Button>
                  </Link>
                }
              />
            </div>
          )}
        </QueryState>
      </Card>
    );

  return (
    <Row gutter={[20, 20]}>
      <Col xs={24} lg={14}>
        {settingsPanel}
      </Col>
      <Col xs={24} lg={10}>
        <EndpointCard endpoint={endpoint} />
      </Col>
      {list.length > 0 && endpoint.data && !accounts.isError ? (
        <Col span={24}>
          <ProxyLinesCard lines={shown.lines} query={shown.query} username={account?.username} onRegenerate={() => setGeneration((g) => g + 1)} />
        </Col>
      ) : null}
      {account && !accounts.isError ? (
        <>
          <Col xs={24} lg={10}>
            <Card variant="borderless" className="surface-card" title={t('proxy.allowlist.title')}>
              {/* Keyed by account: another account's list and form start afresh. */}
              <AllowlistEditor
                key={account.id}
                target={{ proxyAccountId: account.id }}
                requirePassword={{
                  value: account.requirePassword,
                  saving: setRequirePassword.isPending,
                  onChange: (requirePassword) =>
                    setRequirePassword.mutateAsync({ id: account.id, requirePassword }).then((res) => notify.success(res.message || t('proxy.allowlist.saved')), () => undefined),
                }}
              />
            </Card>
          </Col>
          <Col xs={24} lg={14}>
            <ApiLinkCard key={account.id} owner={{ accountId: account.id }} prefix={account.extractKeyPrefix} region={settings.region} life={settings.lifeMinutes ?? 10} />
          </Col>
        </>
      ) : null}
    </Row>
  );
}
