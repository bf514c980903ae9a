import { normalizeLang, type AdminUserDetail } from '@resi/contract';
import { Descriptions, Drawer, Table, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrderStatusTag } from '@/components/order-status-tag';
import { QueryState } from '@/components/query-state';
import { BREAKPOINT, useMediaQuery } from '@/hooks/use-media-query';
import { countryName, formatBytes, formatDateTime, formatMoney } from '@/lib/format';
import { useUserDetail } from '../api/get-user-detail';
import { UserActions } from './user-actions';
import { UserApiKeys } from './user-api-keys';
import { LoginResultTag } from './login-result-tag';
import { UserStatusTag } from './user-status-tag';

type Detail = AdminUserDetail;

/** A short list inside the drawer: it scrolls sideways within itself on a phone. */
function MiniTable<T extends object>({ rows, columns, rowKey, testId }: { rows: T[]; columns: TableColumnsType<T>; rowKey: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Table<T> size="small" rowKey={rowKey} dataSource={rows} columns={columns} pagination={false} scroll={{ x: 'max-content' }} locale={{ emptyText: t('users.detail.none') }} data-testid={testId} />
  );
}

function Profile({ d, onChanged }: { d: Detail; onChanged: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const u = d.user;
  const none = t('commerce.none');
  return (
    <>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        className="user-profile"
        items={[
          { key: 'status', label: t('users.columns.status'), children: <UserStatusTag status={u.status} /> },
          { key: 'role', label: t('users.columns.role'), children: t(`users.role.${u.role}`) },
          { key: 'account', label: t('users.filters.account'), children: u.account ?? none },
          { key: 'balance', label: t('users.columns.balance'), children: formatBytes(u.balanceBytes, lang) },
          { key: 'paid', label: t('users.columns.paidTotal'), children: formatMoney(u.paidTotal, u.currency, lang) },
          { key: 'static', label: t('users.columns.staticIps'), children: u.activeStaticIps },
          { key: 'distributor', label: t('users.profile.distributor'), children: u.isDistributor ? `${u.commissionRate ?? t('users.profile.defaultRate')}${u.commissionRate !== null ? '%' : ''}` : none },
          { key: 'referrer', label: t('users.columns.referrer'), children: u.referrerEmail ?? none },
          { key: 'channel', label: t('users.columns.channel'), children: u.channelKey ? `${u.channelKey}=${u.channelValue ?? ''}` : none },
          { key: 'invite', label: t('users.detail.inviteCode'), children: u.inviteCode },
          { key: 'created', label: t('users.columns.createdAt'), children: formatDateTime(u.createdAt) },
          { key: 'login', label: t('users.columns.lastLogin'), children: u.lastLoginAt ? `${formatDateTime(u.lastLoginAt)} ${u.lastLoginIp ?? ''}` : t('users.never') },
        ]}
      />
      <UserActions key={`${u.id}-${u.isDistributor}-${u.commissionRate}-${u.remark}`} user={u} onChanged={onChanged} />
    </>
  );
}

/** One user: profile and actions, then their traffic, proxy accounts, static IPs, orders, API keys, logins and the audit about them. */
export function UserDetailDrawer({ userId, onClose }: { userId: number | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const wide = useMediaQuery(BREAKPOINT.md);
  const detail = useUserDetail(userId ?? 0);
  return (
    <Drawer
      open={userId !== null}
      onClose={onClose}
      size={wide ? 760 : '100%'}
      title={detail.data?.user.email ?? t('users.detail.title')}
      // Closed from the far corner: at the start of the header the close button sat under the page's
      // centred "Saved." message, and a pointer resting there keeps antd's message from leaving.
      closable={{ placement: 'end' }}
      destroyOnHidden
      data-testid="user-detail"
    >
      {userId !== null && (
        <QueryState query={detail} rows={8} errorTitle={t('users.detail.loadFailed')}>
          {(d) => (
            <Tabs
              items={[
                { key: 'profile', label: t('users.detail.profile'), children: <Profile d={d} onChanged={() => void detail.refetch()} /> },
                {
                  key: 'grants',
                  label: t('users.detail.grants'),
                  children: (
                    <MiniTable
                      rowKey="id"
                      testId="user-grants"
                      rows={d.grants}
                      columns={[
                        { title: t('users.detail.bytes'), key: 'bytes', render: (_v, g) => formatBytes(g.bytes, lang) },
                        { title: t('users.detail.left'), key: 'left', render: (_v, g) => formatBytes(g.bytes - g.usedBytes, lang) },
                        { title: t('users.detail.expiresAt'), key: 'exp', render: (_v, g) => formatDateTime(g.expiresAt) },
                        { title: t('users.detail.orderNo'), key: 'order', render: (_v, g) => g.orderNo ?? t('commerce.none') },
                      ]}
                    />
                  ),
                },
                {
                  key: 'accounts',
                  label: t('users.detail.accounts'),
                  children: (
                    <MiniTable
                      rowKey="id"
                      testId="user-accounts"
                      rows={d.proxyAccounts}
                      columns={[
                        { title: t('users.detail.username'), dataIndex: 'username' },
                        { title: t('users.detail.kind'), key: 'kind', render: (_v, a) => t(`users.detail.accountKind.${a.kind}`) },
                        { title: t('users.columns.status'), key: 'status', render: (_v, a) => <UserStatusTag status={a.status} /> },
                        {
                          title: t('users.detail.used'),
                          key: 'used',
                          render: (_v, a) => `${formatBytes(a.usedBytes, lang)}${a.limitBytes !== null ? ` / ${formatBytes(a.limitBytes, lang)}` : ''}`,
                        },
                      ]}
                    />
                  ),
                },
                {
                  key: 'static',
                  label: t('users.detail.staticIps'),
                  children: (
                    <MiniTable
                      rowKey="id"
                      testId="user-static"
                      rows={d.staticIps}
                      columns={[
                        { title: 'IP', key: 'ip', render: (_v, s) => <span className="mono">{s.ip}</span> },
                        { title: t('users.detail.country'), key: 'country', render: (_v, s) => countryName(s.country, lang) },
                        { title: t('users.columns.status'), key: 'status', render: (_v, s) => <Tag>{t(`users.detail.staticStatus.${s.status}`)}</Tag> },
                        { title: t('users.detail.expiresAt'), key: 'exp', render: (_v, s) => formatDateTime(s.expiresAt) },
                      ]}
                    />
                  ),
                },
                {
                  key: 'orders',
                  label: t('users.detail.orders'),
                  children: (
                    <MiniTable
                      rowKey="orderNo"
                      testId="user-orders"
                      rows={d.orders}
                      columns={[
                        { title: t('users.detail.orderNo'), key: 'orderNo', render: (_v, o) => <span className="mono">{o.orderNo}</span> },
                        { title: t('users.detail.kind'), key: 'kind', render: (_v, o) => t(`commerce.orderKind.${o.kind}`) },
                        { title: t('users.columns.status'), key: 'status', render: (_v, o) => <OrderStatusTag status={o.status} /> },
                        { title: t('users.detail.amount'), key: 'amount', render: (_v, o) => formatMoney(o.amount, o.currency, lang) },
                        { title: t('users.columns.createdAt'), key: 'at', render: (_v, o) => formatDateTime(o.createdAt) },
                      ]}
                    />
                  ),
                },
                {
                  key: 'apiKeys',
                  label: t('apiKeys.admin.tab'),
                  children: <UserApiKeys keys={d.apiKeys} />,
                },
                {
                  key: 'logins',
                  label: t('users.detail.logins'),
                  children: (
                    <MiniTable
                      rowKey="key"
                      testId="user-logins"
                      rows={d.logins.map((l, i) => ({ ...l, key: `${l.at}-${i}` }))}
                      columns={[
                        { title: t('users.detail.at'), key: 'at', className: 'nowrap', render: (_v, l) => formatDateTime(l.at) },
                        { title: 'IP', dataIndex: 'ip' },
                        { title: t('users.detail.result'), key: 'result', render: (_v, l) => <LoginResultTag result={l.result} /> },
                        { title: t('users.detail.userAgent'), key: 'ua', render: (_v, l) => <Typography.Text ellipsis className="user-agent">{l.userAgent}</Typography.Text> },
                      ]}
                    />
                  ),
                },
                {
                  key: 'audit',
                  label: t('users.detail.audit'),
                  children: (
                    <MiniTable
                      rowKey="key"
                      testId="user-audit"
                      rows={d.audit.map((a, i) => ({ ...a, key: `${a.at}-${i}` }))}
                      columns={[
                        { title: t('users.detail.at'), key: 'at', className: 'nowrap', render: (_v, a) => formatDateTime(a.at) },
                        { title: t('users.detail.actor'), key: 'actor', render: (_v, a) => a.actorEmail ?? t('commerce.none') },
                        { title: t('users.detail.action'), key: 'action', render: (_v, a) => <span className="mono">{a.action}</span> },
                        { title: t('users.detail.change'), key: 'change', render: (_v, a) => <code className="audit-change">{JSON.stringify(a.after)}</code> },
                      ]}
                    />
                  ),
                },
              ]}
            />
          )}
        </QueryState>
      )}
    </Drawer>
  );
}
