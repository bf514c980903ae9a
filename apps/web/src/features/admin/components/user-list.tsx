import { CheckCircleOutlined, DownOutlined, DownloadOutlined, StopOutlined } from '@ant-design/icons';
import { normalizeLang, type AdminUserDto, type UserFilter, type UserSort } from '@resi/contract';
import { Button, Dropdown, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { formatBytes, formatDateTime, formatMoney } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useBulkUpdateUsers } from '../api/bulk-update-users';
import { useExportUsers } from '../api/export-users';
import { usersQueryOptions, type UserListQuery } from '../api/get-users';
import { UserFilterBar } from './user-filter-bar';
import { UserStatusTag } from './user-status-tag';

const SORTS: Record<string, UserSort> = { createdAt: 'createdAt', lastLoginAt: 'lastLoginAt', paidTotal: 'paidTotal' };

/**
 * Every user with filters, server sorting and paging. Disable and enable act on the rows chosen, and only on
 * them; acting on every user the filters match is a choice of its own, in a menu that names how many (a bulk
 * disable with nothing selected once reached the whole list). Export takes the chosen rows, or with none chosen
 * the filtered list. A row opens the user's detail.
 */
export function UserList({ onOpen }: { onOpen: (user: AdminUserDto) => void }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [modal, modalHolder] = Modal.useModal();
  const [filters, setFilters] = useState<Partial<UserFilter>>({});
  const [sort, setSort] = useState<Pick<UserListQuery, 'sort' | 'order'>>({});
  const [selected, setSelected] = useState<number[]>([]);
  const paged = usePagedQuery(usersQueryOptions, { ...filters, ...sort });
  const bulk = useBulkUpdateUsers();
  const exporter = useExportUsers();
  const total = paged.query.data?.total ?? 0;

  const apply = (next: Partial<UserFilter>) => {
    setFilters(next);
    setSelected([]);
  };

  const confirmBulk = (action: 'disable' | 'enable', scope: 'selected' | 'filtered') => {
    modal.confirm({
      title: t(`users.bulk.${action}Title`),
      content: t(scope === 'selected' ? 'users.bulk.contentSelected' : 'users.bulk.contentFiltered', { count: scope === 'selected' ? selected.length : total }),
      okText: t(`users.bulk.${action}`),
      okButtonProps: { danger: action === 'disable', 'data-testid': 'bulk-confirm' } as never,
      cancelText: t('admin.cancel'),
      onOk: () =>
        bulk
          .mutateAsync(scope === 'selected' ? { action, ids: selected } : { action, filter: filters })
          .then((res) => {
            notify.success(t('users.bulk.done', res.data));
            setSelected([]);
          })
          .catch(() => undefined),
    });
  };

  return (
    <div data-testid="user-list">
      {modalHolder}
      <UserFilterBar onApply={apply} />
      <div className="table-toolbar">
        <Typography.Text type="secondary" data-testid="users-selection">
          {selected.length > 0 ? t('users.bulk.selected', { count: selected.length }) : t('users.bulk.noneSelected', { count: total })}
        </Typography.Text>
        <Space wrap>
          <Button icon={<StopOutlined />} danger disabled={selected.length === 0} onClick={() => confirmBulk('disable', 'selected')} data-testid="bulk-disable">
            {t('users.bulk.disableSelected')}
          </Button>
          <Button icon={<CheckCircleOutlined />} disabled={selected.length === 0} onClick={() => confirmBulk('enable', 'selected')} data-testid="bulk-enable">
            {t('users.bulk.enableSelected')}
          </Button>
          <Dropdown
            disabled={total === 0}
            trigger={['click']}
            menu={{
              items: [
                { key: 'disable', danger: true, icon: <StopOutlined />, label: t('users.bulk.disableFiltered', { count: total }), 'data-testid': 'bulk-disable-filtered' } as never,
                { key: 'enable', icon: <CheckCircleOutlined />, label: t('users.bulk.enableFiltered', { count: total }), 'data-testid': 'bulk-enable-filtered' } as never,
              ],
              onClick: ({ key }) => confirmBulk(key as 'disable' | 'enable', 'filtered'),
            }}
          >
            <Button data-testid="bulk-filtered">
              {t('users.bulk.filteredMenu', { count: total })} <DownOutlined />
            </Button>
          </Dropdown>
          <Button
            icon={<DownloadOutlined />}
            loading={exporter.isPending}
            disabled={total === 0}
            onClick={() => exporter.mutate(selected.length > 0 ? { ids: selected } : { ...filters, ...sort })}
            data-testid="users-export"
          >
            {t('users.export')}
          </Button>
        </Space>
      </div>
      <PagedTable<AdminUserDto>
        paged={paged}
        rowKey="id"
        emptyText={t('users.empty')}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), preserveSelectedRowKeys: true }}
        onSortChange={(key, order) => setSort(key && order ? { sort: SORTS[key], order: order === 'ascend' ? 'asc' : 'desc' } : {})}
        onRow={(u) => ({ 'data-testid': `user-row-${u.id}` }) as never}
        // Ten facts in eight columns, so the list fits a laptop's width ("Last login" was cut at 1440 px): the
        // role and remark with the user, static IPs with the traffic, the channel with the referrer.
        columns={[
          {
            title: t('users.columns.user'),
            key: 'user',
            render: (_v, u) => (
              <div className="cell-user cell-user--main">
                <Typography.Link onClick={() => onOpen(u)} data-testid="user-open">
                  {u.email}
                </Typography.Link>
                <span className="muted">
                  #{u.id}
                  {u.account ? ` · ${u.account}` : ''}
                </span>
                <Space size={4} wrap className="cell-user__tags">
                  <Tag color={u.role === 'admin' ? 'gold' : undefined}>{t(`users.role.${u.role}`)}</Tag>
                  {u.isDistributor && (
                    <Tag color="purple" data-testid="user-distributor">
                      {t('users.distributor')}
                      {u.commissionRate !== null ? ` ${u.commissionRate}%` : ''}
                    </Tag>
                  )}
                </Space>
                {u.remark ? <span className="muted" data-testid="user-remark-cell">{u.remark}</span> : null}
              </div>
            ),
          },
          { title: t('users.columns.status'), key: 'status', render: (_v, u) => <UserStatusTag status={u.status} /> },
          {
            title: t('users.columns.holdings'),
            key: 'balance',
            render: (_v, u) => (
              <div className="cell-user">
                <span className="nowrap">{formatBytes(u.balanceBytes, lang)}</span>
                <span className="muted nowrap">{t('users.staticIpsCount', { count: u.activeStaticIps })}</span>
              </div>
            ),
          },
          { title: t('users.columns.paidTotal'), key: 'paidTotal', sorter: true, className: 'nowrap', render: (_v, u) => formatMoney(u.paidTotal, u.currency, lang) },
          {
            title: t('users.columns.cameFrom'),
            key: 'referrer',
            render: (_v, u) => (
              <div className="cell-user">
                <span>{u.referrerEmail ?? t('commerce.none')}</span>
                {u.channelKey ? <span className="muted">{`${u.channelKey}=${u.channelValue ?? ''}`}</span> : null}
              </div>
            ),
          },
          { title: t('users.columns.createdAt'), key: 'createdAt', sorter: true, render: (_v, u) => formatDateTime(u.createdAt) },
          {
            title: t('users.columns.lastLogin'),
            key: 'lastLoginAt',
            sorter: true,
            render: (_v, u) =>
              u.lastLoginAt ? (
                <div className="cell-user">
                  <span>{formatDateTime(u.lastLoginAt)}</span>
                  <span className="muted">{u.lastLoginIp ?? ''}</span>
                </div>
              ) : (
                t('users.never')
              ),
          },
        ]}
      />
    </div>
  );
}
