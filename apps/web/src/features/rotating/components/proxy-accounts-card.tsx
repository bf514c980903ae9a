import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { normalizeLang, type ProxyAccountDto } from '@resi/contract';
import { Button, Card, Popconfirm, Progress, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProxyAccounts } from '@/api/get-proxy-accounts';
import { QueryState } from '@/components/query-state';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { formatBytes, formatDateTime } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useDeleteProxyAccount } from '../api/delete-proxy-account';
import { useUpdateProxyAccount } from '../api/update-proxy-account';
import { AccountModal, type AccountModalState } from './account-modal';
import { usedPercent } from './account-values';

/** The customer's proxy accounts: create, edit, enable/disable at once, delete after a confirmation. */
export function ProxyAccountsCard() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const accounts = useProxyAccounts();
  const actionsPin = useActionsPin();
  const update = useUpdateProxyAccount();
  const remove = useDeleteProxyAccount();
  const [modal, setModal] = useState<AccountModalState>(null);
  const copyable = { tooltips: [t('rotating.accounts.copy'), t('rotating.accounts.copied')] };

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('rotating.accounts.title')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal('new')} data-testid="add-account">
          {t('rotating.accounts.add')}
        </Button>
      }
      data-testid="proxy-accounts"
    >
      <p className="muted">{t('rotating.accounts.lead')}</p>
      <QueryState query={accounts} rows={4}>
        {(list) => (
          <Table<ProxyAccountDto>
            rowKey="id"
            loading={accounts.isFetching}
            dataSource={list}
            // Not max-content: that lays every column out unwrapped, so a table ran past a laptop's width and its
      // last columns slid under the pinned Actions; auto widths wrap what may wrap and scroll only the rest.
      scroll={{ x: true }}
            locale={{ emptyText: t('rotating.accounts.empty') }}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showTotal: (total) => t('commerce.total', { total }) }}
            columns={[
              {
                // Username over password: one column, so the table fits a laptop's width with nothing under the
                // pinned Actions column (the status switch sat there at 1440 px, its header cut to "En").
                title: t('rotating.accounts.login'),
                key: 'login',
                className: 'nowrap',
                render: (_v, account) => (
                  <div className="account-login">
                    <Typography.Text copyable={copyable} className="mono" data-testid="account-name">
                      {account.username}
                    </Typography.Text>
                    <Typography.Text copyable={copyable} className="mono" type="secondary" data-testid="account-password">
                      {account.password}
                    </Typography.Text>
                  </div>
                ),
              },
              {
                title: t('rotating.accounts.enabled'),
                dataIndex: 'status',
                render: (status: ProxyAccountDto['status'], account) => (
                  <Switch
                    size="small"
                    checked={status === 'active'}
                    aria-label={t('rotating.accounts.enabled')}
                    onChange={(on) => update.mutate({ id: account.id, body: { status: on ? 'active' : 'disabled' } }, { onSuccess: (res) => notify.success(res.message || t('rotating.accounts.saved')) })}
                    data-testid="account-status"
                  />
                ),
              },
              {
                title: t('rotating.accounts.usage'),
                key: 'usage',
                width: 180,
                render: (_v, account) => {
                  const percent = usedPercent(account);
                  const used = formatBytes(account.usedBytes, lang);
                  return (
                    <div className="account-usage" data-testid="account-usage">
                      <span className="nowrap">
                        {account.limitBytes === null ? t('rotating.accounts.usedNoLimit', { used }) : t('rotating.accounts.usedOfLimit', { used, limit: formatBytes(account.limitBytes, lang) })}
                      </span>
                      {percent !== null ? <Progress percent={percent} size="small" status={percent >= 100 ? 'exception' : 'normal'} showInfo={false} /> : null}
                    </div>
                  );
                },
              },
              {
                title: t('rotating.accounts.failedLogins'),
                key: 'failedLogins',
                render: (_v, account) =>
                  account.loginFailures === 0 ? (
                    <span className="muted">{t('commerce.none')}</span>
                  ) : (
                    <span data-testid="account-failed-logins">
                      <Typography.Text type="warning">{account.loginFailures}</Typography.Text>
                      {account.lastLoginFailureAt ? <div className="muted nowrap">{t('rotating.accounts.lastFailedLogin', { time: formatDateTime(account.lastLoginFailureAt) })}</div> : null}
                    </span>
                  ),
              },
              { title: t('rotating.accounts.remark'), dataIndex: 'remark', render: (v: string | null) => v ?? <span className="muted">{t('commerce.none')}</span> },
              { title: t('rotating.accounts.createdAt'), dataIndex: 'createdAt', className: 'nowrap', render: (v: string) => formatDateTime(v) },
              {
                title: t('rotating.accounts.actions'),
                key: 'actions',
                fixed: actionsPin,
                className: 'nowrap',
                render: (_v, account) => (
                  <Space size={0} direction="vertical" align="start">
                    <Button type="link" icon={<EditOutlined />} onClick={() => setModal(account)} data-testid="edit-account">
                      {t('rotating.accounts.edit')}
                    </Button>
                    <Popconfirm
                      title={t('rotating.accounts.deleteConfirm', { username: account.username })}
                      description={t('rotating.accounts.deleteHint')}
                      okText={t('rotating.accounts.delete')}
                      cancelText={t('rotating.accounts.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove.mutateAsync(account.id).then((res) => notify.success(res.message || t('rotating.accounts.deleted')), () => undefined)}
                    >
                      <Button type="link" danger icon={<DeleteOutlined />} data-testid="delete-account">
                        {t('rotating.accounts.delete')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      <AccountModal state={modal} onClose={() => setModal(null)} />
    </Card>
  );
}
