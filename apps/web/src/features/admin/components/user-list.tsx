import { DownloadOutlined, StopOutlined, CheckCircleOutlined } from '@ant-design/icons';
import { normalizeLang, type AdminUserDto, type UserFilter, type UserSort } from '@resi/contract';
import { Button, Modal, Space, Tag, Typography } from 'antd';
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
 * Every user with filters, server sorting and paging; rows can be chosen for a bulk disable/enable or
 * export, and with none chosen those act on every user the filters match. A row opens the user's detail.
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
  const count = selected.length > 0 ? selected.length : total;

  const apply = (next: Partial<UserFilter>) => {
    setFilters(next);
    setSelected([]);
  };

  const confirmBulk = (action: 'disable' | 'enable') => {
    modal.confirm({
      title: t(`users.bulk.${action}Title`),
      content: t(selected.length > 0 ? 'users.bulk.contentSelected' : 'users.bulk.contentFiltered', { count }),
      okText: t(`users.bulk.${action}`),
      okButtonProps: { danger: action === 'disable', 'data-testid': 'bulk-confirm' } as never,
      cancelText: t('admin.cancel'),
      onOk: () =>
        bulk
          .mutateAsync(selected.length > 0 ? { action, ids: selected } : { action, filter: filters })
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
          {selected.length > 0 ? t('users.bulk.selected', { count: selected.length }) : t('users.bulk.allFiltered', { count: total })}
        </Typography.Text>
        <Space wrap>
          <Button icon={<StopOutlined />} danger disabled={count === 0} onClick={() => confirmBulk('disable')} data-testid="bulk-disable">
            {t('users.bulk.disable')}
          </Button>
          <Button icon={<CheckCircleOutlined />} disabled={count === 0} onClick={() => confirmBulk('enable')} data-testid="bulk-enable">
            {t('users.bulk.enable')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={exporter.isPending}
            disabled={count === 0}
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
        columns={[
          {
            title: t('users.columns.user'),
            key: 'user',
            render: (_v, u) => (
              <div className="cell-user">
                <Typography.Link onClick={() => onOpen(u)} data-testid="user-open">
                  {u.email}
                </Typography.Link>
                <span className="muted">
                  #{u.id}
                  {u.account ? ` · ${u.account}` : ''}
                </span>
              </div>
            ),
          },
          {
            title: t('users.columns.role'),
            key: 'role',
            className: 'nowrap',
            render: (_v, u) => (
              <Space size={4} wrap>
                <Tag color={u.role === 'admin' ? 'gold' : undefined}>{t(`users.role.${u.role}`)}</Tag>
                {u.isDistributor && (
                  <Tag color="purple" data-testid="user-distributor">
                    {t('users.distributor')}
                    {u.commissionRate !== null ? ` ${u.commissionRate}%` : ''}
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: t('users.columns.status'), key: 'status', render: (_v, u) => <UserStatusTag status={u.status} /> },
          { title: t('users.columns.balance'), key: 'balance', className: 'nowrap', render: (_v, u) => formatBytes(u.balanceBytes, lang) },
          { title: t('users.columns.staticIps'), dataIndex: 'activeStaticIps', className: 'nowrap' },
          { title: t('users.columns.paidTotal'), key: 'paidTotal', sorter: true, className: 'nowrap', render: (_v, u) => formatMoney(u.paidTotal, u.currency, lang) },
          {
            title: t('users.columns.referrer'),
            key: 'referrer',
            render: (_v, u) => u.referrerEmail ?? t('commerce.none'),
          },
          {
            title: t('users.columns.channel'),
            key: 'channel',
            render: (_v, u) => (u.channelKey ? `${u.channelKey}=${u.channelValue ?? ''}` : t('commerce.none')),
          },
          { title: t('users.columns.createdAt'), key: 'createdAt', sorter: true, className: 'nowrap', render: (_v, u) => formatDateTime(u.createdAt) },
          {
            title: t('users.columns.lastLogin'),
            key: 'lastLoginAt',
            sorter: true,
            render: (_v, u) =>
              u.lastLoginAt ? (
                <div className="cell-user">
                  <span className="nowrap">{formatDateTime(u.lastLoginAt)}</span>
                  <span className="muted">{u.lastLoginIp ?? ''}</span>
                </div>
              ) : (
                t('users.never')
              ),
          },
          { title: t('users.columns.remark'), dataIndex: 'remark', render: (v: string | null) => v ?? t('commerce.none') },
        ]}
      />
    </div>
  );
}
