import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { normalizeLang, type ProviderDto } from '@resi/contract';
import { Button, Popconfirm, Progress, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { BYTES_PER_GB, formatBytes, formatCount, formatMoney } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useDeleteProvider } from '../api/delete-provider';
import { ProviderDials, ProviderHealthTags } from './provider-health';

interface ProvidersTableProps {
  providers: ProviderDto[];
  onEdit: (provider: ProviderDto) => void;
}

/** Share of the monthly quota used, 0–100 (more than 100 shows full, in red). */
function quotaPercent(p: ProviderDto): number | null {
  if (p.monthlyQuotaGb === null || p.monthlyQuotaGb <= 0) return null;
  return (p.usage.bytesMonth / (p.monthlyQuotaGb * BYTES_PER_GB)) * 100;
}

/**
 * The providers with their live health, usage and cost. Facts that belong together share a cell (the status
 * under the name, the connect times under the success rate, the month under today), so the table shows all
 * its columns at a laptop's width; on a phone it scrolls sideways inside its card.
 */
export function ProvidersTable({ providers, onEdit }: ProvidersTableProps) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const actionsPin = useActionsPin();
  const remove = useDeleteProvider();

  const columns: TableColumnsType<ProviderDto> = [
    {
      title: t('providers.columns.provider'),
      key: 'name',
      render: (_v, p) => (
        // A long name wraps, but not to a sliver on a phone.
        <div className="cell-user" style={{ minWidth: 120 }}>
          <strong>{p.name}</strong>
          <span className="cell-user__tags">
            <Tag color={p.status === 'enabled' ? 'blue' : 'default'} data-testid="provider-status-tag">
              {t(`providers.status.${p.status}`)}
            </Tag>
          </span>
        </div>
      ),
    },
    // Short headers over short cells: kept on one line rather than broken mid-word on a phone.
    { title: t('providers.columns.health'), key: 'health', className: 'nowrap', render: (_v, p) => <ProviderHealthTags health={p.health} /> },
    { title: t('providers.columns.dials'), key: 'dials', className: 'nowrap', render: (_v, p) => <ProviderDials health={p.health} lang={lang} /> },
    {
      title: t('providers.columns.traffic'),
      key: 'traffic',
      render: (_v, p) => {
        const percent = quotaPercent(p);
        return (
          <div className="cell-user" data-testid="provider-traffic">
            <span className="nowrap">{t('providers.traffic.today', { bytes: formatBytes(p.usage.bytesToday, lang) })}</span>
            <span className="muted nowrap">
              {p.monthlyQuotaGb === null
                ? t('providers.traffic.month', { bytes: formatBytes(p.usage.bytesMonth, lang) })
                : t('providers.traffic.monthOfQuota', { bytes: formatBytes(p.usage.bytesMonth, lang), quota: formatBytes(p.monthlyQuotaGb * BYTES_PER_GB, lang) })}
            </span>
            {percent !== null ? <Progress percent={Math.min(100, percent)} size="small" showInfo={false} status={percent >= 100 ? 'exception' : 'normal'} /> : null}
          </div>
        );
      },
    },
    {
      title: t('providers.columns.cost'),
      key: 'cost',
      align: 'right',
      className: 'nowrap',
      render: (_v, p) => <span data-testid="provider-cost">{formatMoney(p.costPerGb.amount, p.costPerGb.currency, lang)}</span>,
    },
    {
      title: t('providers.columns.routing'),
      key: 'routing',
      render: (_v, p) => (
        <div className="cell-user" data-testid="provider-routing">
          <span className="nowrap">{t('providers.routing', { priority: formatCount(p.priority, lang), weight: formatCount(p.weight, lang) })}</span>
          <span className="muted">{p.regions.length === 0 ? t('providers.allRegions') : p.regions.join(', ')}</span>
        </div>
      ),
    },
    {
      title: t('providers.columns.actions'),
      key: 'actions',
      fixed: actionsPin,
      className: 'nowrap',
      render: (_v, p) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(p)} data-testid="provider-edit">
            {t('providers.edit')}
          </Button>
          <Popconfirm
            title={t('providers.deleteConfirm', { name: p.name })}
            description={t('providers.deleteHelp')}
            okText={t('providers.delete')}
            cancelText={t('providers.cancel')}
            okButtonProps={{ danger: true, loading: remove.isPending, 'data-testid': 'provider-delete-confirm' } as never}
            onConfirm={() =>
              remove
                .mutateAsync(p.id)
                .then((res) => notify.success(res.message || t('providers.deleted')))
                .catch(() => undefined)
            }
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="provider-delete">
              {t('providers.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Table<ProviderDto>
      rowKey="id"
      size="small"
      dataSource={providers}
      columns={columns}
      locale={{ emptyText: t('providers.list.empty') }}
      // Auto widths wrap what may wrap (regions) and scroll only the rest, inside the card.
      scroll={{ x: true }}
      pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: (total) => t('commerce.total', { total }) }}
      data-testid="providers-table"
    />
  );
}
