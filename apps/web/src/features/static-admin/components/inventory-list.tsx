import { SearchOutlined } from '@ant-design/icons';
import { STATIC_INVENTORY_STATUSES, normalizeLang, type StaticInventoryDto, type StaticInventoryStatus } from '@resi/contract';
import { Button, Card, Form, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyableCode } from '@/components/copyable-code';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { formatDateTime, formatMoney } from '@/lib/format';
import { optionalText } from '@/lib/form-rules';
import { staticInventoryQueryOptions, type StaticInventoryFilters } from '../api/get-static-inventory';
import { EditInventoryModal } from './edit-inventory-modal';
import { HistoryDrawer } from './history-drawer';
import { InventoryStatusTag } from './inventory-status-tag';
import { ExtendModal } from './extend-modal';
import { RetireButton } from './retire-button';
import type { Namer } from './static-names';

interface FilterValues {
  regionId?: number;
  businessId?: number;
  status?: StaticInventoryStatus;
  ip?: string;
}

/** The inventory's rows with filters and server paging; history, edit and retire per row. */
export function InventoryList({ names }: { names: Namer }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const actionsPin = useActionsPin();
  const [form] = Form.useForm<FilterValues>();
  const [filters, setFilters] = useState<StaticInventoryFilters>({});
  const [historyOf, setHistoryOf] = useState<StaticInventoryDto | null>(null);
  const [extending, setExtending] = useState<StaticInventoryDto | null>(null);
  const [editing, setEditing] = useState<StaticInventoryDto | null>(null);
  const paged = usePagedQuery(staticInventoryQueryOptions, filters);

  const apply = (values: FilterValues) => setFilters({ regionId: values.regionId, businessId: values.businessId, status: values.status, ip: optionalText(values.ip) });

  return (
    <Card variant="borderless" className="surface-card" title={t('staticAdmin.list.title')}>
      <Form<FilterValues> form={form} layout="inline" className="filter-form" onFinish={apply}>
        <Form.Item name="regionId">
          <Select allowClear placeholder={t('staticAdmin.fields.region')} options={names.regionOptions} className="filter-select" data-testid="filter-region" />
        </Form.Item>
        <Form.Item name="businessId">
          <Select allowClear placeholder={t('staticAdmin.fields.businessLine')} options={names.businessOptions} className="filter-select" />
        </Form.Item>
        <Form.Item name="status">
          <Select<StaticInventoryStatus>
            allowClear
            placeholder={t('staticAdmin.columns.status')}
            options={STATIC_INVENTORY_STATUSES.map((s) => ({ value: s, label: t(`staticAdmin.status.${s}`) }))}
            className="filter-select"
            data-testid="filter-status"
          />
        </Form.Item>
        <Form.Item name="ip">
          <Input allowClear placeholder={t('staticAdmin.list.ipPrefix')} className="filter-input" data-testid="filter-ip" />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="inventory-search">
              {t('staticAdmin.list.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                apply({});
              }}
            >
              {t('staticAdmin.list.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <PagedTable<StaticInventoryDto>
        paged={paged}
        rowKey="id"
        size="small"
        emptyText={t('staticAdmin.list.empty')}
        errorTitle={t('staticAdmin.list.loadFailed')}
        data-testid="static-inventory"
        columns={[
          { title: t('staticAdmin.columns.ip'), dataIndex: 'ip', className: 'nowrap', render: (ip: string) => <CopyableCode value={ip} /> },
          // The ISP under the region, and a cooldown's end under the status: with the monthly cost the list must still
          // fit a laptop's width beside the pinned Actions.
          {
            title: t('staticAdmin.columns.regionIsp'),
            key: 'region',
            className: 'keep-words',
            render: (_v, r) => (
              <div className="cell-state">
                <span>{names.region(r.regionId)}</span>
                {r.isp ? <span className="muted">{r.isp}</span> : null}
              </div>
            ),
          },
          {
            title: t('staticAdmin.columns.lines'),
            key: 'lines',
            className: 'keep-words',
            render: (_v, r) => (r.businessIds.length === 0 ? t('staticAdmin.allLines') : r.businessIds.map(names.business).join(', ')),
          },
          { title: t('staticAdmin.columns.upstream'), dataIndex: 'upstream', className: 'nowrap', render: (u: string) => <span className="mono">{u}</span> },
          {
            title: t('staticAdmin.columns.status'),
            key: 'status',
            render: (_v, r) => (
              <div className="cell-state">
                <InventoryStatusTag status={r.status} />
                {r.cooldownUntil ? <span className="muted nowrap">{t('staticAdmin.list.cooldownUntil', { at: formatDateTime(r.cooldownUntil) })}</span> : null}
              </div>
            ),
          },
          // What the IP costs the operator each month (its supplier's price): with the sales, the static margin.
          { title: t('staticAdmin.columns.costPerMonth'), key: 'cost', align: 'right', render: (_v, r) => <span data-testid="inventory-cost">{formatMoney(r.costPerMonth, r.currency, lang)}</span> },
          {
            title: t('staticAdmin.columns.actions'),
            key: 'actions',
            fixed: actionsPin,
            className: 'nowrap',
            render: (_v, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setHistoryOf(r)} data-testid="history-row">
                  {t('staticAdmin.actions.history')}
                </Button>
                <Button type="link" size="small" disabled={r.status === 'retired'} onClick={() => setEditing(r)} data-testid="edit-row">
                  {t('staticAdmin.actions.edit')}
                </Button>
                <Button type="link" size="small" disabled={!r.holder} onClick={() => setExtending(r)} data-testid="extend-row">
                  {t('staticAdmin.actions.extend')}
                </Button>
                <RetireButton row={r} />
              </Space>
            ),
          },
        ]}
      />
      <HistoryDrawer row={historyOf} onClose={() => setHistoryOf(null)} />
      <ExtendModal row={extending} onClose={() => setExtending(null)} />
      <EditInventoryModal row={editing} names={names} onClose={() => setEditing(null)} />
    </Card>
  );
}
