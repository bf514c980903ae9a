import { DownloadOutlined, ReloadOutlined, SafetyOutlined, SwapOutlined, SyncOutlined } from '@ant-design/icons';
import { normalizeLang, type StaticProxyDto, type StaticProxyStatus } from '@resi/contract';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { staticProxiesQueryOptions } from '@/api/get-static-proxies';
import { CopyableCode } from '@/components/copyable-code';
import { PagedTable, usePagedQuery } from '@/components/paged-table';
import { useActionsPin } from '@/hooks/use-actions-pin';
import { saveBlob } from '@/lib/download';
import { countryName, formatBytes, formatDateTime, localizedName } from '@/lib/format';
import { useNow } from '@/hooks/use-now';
import { timeLeft } from '@/lib/time-left';
import { useSetStaticRemark } from '../api/set-static-remark';
import { staticLines, staticLinesText } from '../lib/static-lines';

const STATUS_COLORS: Record<StaticProxyStatus, string> = { active: 'green', grace: 'orange', released: 'default' };

export const STATIC_PROXIES_PAGE_SIZE = 10;

/** The file "Export lines" saves. */
export const STATIC_LINES_FILE = 'static-proxies.txt';

interface StaticProxiesCardProps {
  onRenew: (proxies: StaticProxyDto[]) => void;
  onReplace: (proxy: StaticProxyDto) => void;
  /** Opens the IP's allowlist. */
  onAllowlist: (proxy: StaticProxyDto) => void;
}

/**
 * The customer's static IPs (GET /api/proxy/static): exit, place, line, status, time left, the gateway login
 * and its lines; selected IPs are renewed together, each IP replaced on its own.
 */
export function StaticProxiesCard({ onRenew, onReplace, onAllowlist }: StaticProxiesCardProps) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const actionsPin = useActionsPin();
  const paged = usePagedQuery(staticProxiesQueryOptions, {}, STATIC_PROXIES_PAGE_SIZE);
  const proxies = paged.query;
  const now = useNow();
  const [selected, setSelected] = useState<StaticProxyDto[]>([]);
  const setRemark = useSetStaticRemark();
  const onScreen = proxies.data?.items ?? [];
  // Only rows still on screen count: a renewed or released IP may have changed since it was ticked.
  const chosen = selected.filter((s) => onScreen.some((p) => p.id === s.id && p.status !== 'released'));

  const exportLines = () => saveBlob(new Blob([staticLinesText(onScreen)], { type: 'text/plain' }), STATIC_LINES_FILE);

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('static.list.title')}
      extra={
        <Space wrap>
          <Button type="primary" icon={<SyncOutlined />} disabled={chosen.length === 0} onClick={() => onRenew(chosen)} data-testid="static-renew">
            {chosen.length > 0 ? t('static.list.renewSelected', { count: chosen.length }) : t('static.list.renew')}
          </Button>
          <Button icon={<DownloadOutlined />} disabled={onScreen.length === 0} onClick={exportLines} data-testid="static-export">
            {t('static.list.export')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={() => void proxies.refetch()} loading={proxies.isFetching} data-testid="static-refresh">
            {t('static.list.refresh')}
          </Button>
        </Space>
      }
      data-testid="static-proxies"
    >
      <PagedTable<StaticProxyDto>
        paged={paged}
        rowKey="id"
        size="middle"
        emptyText={t('static.list.empty')}
        errorTitle={t('static.list.failed')}
        // Each IP's two lines take the full width under its row: in a column they would push the table wide.
        expandable={{ expandedRowKeys: onScreen.map((p) => p.id), showExpandColumn: false, expandedRowRender: (p) => <StaticLines proxy={p} /> }}
        rowSelection={{
          selectedRowKeys: chosen.map((p) => p.id),
          onChange: (_keys, rows) => setSelected(rows),
          getCheckboxProps: (p) => ({ disabled: p.status === 'released' }),
        }}
        columns={[
          {
            title: t('static.list.columns.ip'),
            key: 'ip',
            className: 'nowrap',
            render: (_v, p) => (
              <div>
                <div className="mono" data-testid="static-ip">{p.ip}</div>
                {p.isp ? <Typography.Text type="secondary">{p.isp}</Typography.Text> : null}
              </div>
            ),
          },
          // Place and line in one column, the expiry under the status, the replacements left on the Replace
          // button: the columns fit a laptop's width with nothing under the pinned Actions column.
          {
            title: t('static.list.columns.place'),
            key: 'region',
            className: 'nowrap',
            render: (_v, p) => (
              <div>
                <div>{localizedName(p.regionName, lang)}</div>
                <Typography.Text type="secondary">{countryName(p.country, lang)}</Typography.Text>
                <div className="muted">{localizedName(p.businessName, lang)}</div>
              </div>
            ),
          },
          {
            title: t('static.list.columns.status'),
            key: 'status',
            className: 'nowrap',
            render: (_v, p) => {
              const left = timeLeft(p.expiresAt, now, lang);
              return (
                <div className="cell-state">
                  <Tag color={STATUS_COLORS[p.status]} data-testid="static-status" data-status={p.status}>
                    {t(`static.status.${p.status}`)}
                  </Tag>
                  <Typography.Text type={left ? 'secondary' : 'danger'} data-testid="static-time-left">
                    {left ?? t('static.list.expired')}
                  </Typography.Text>
                  <span className="muted">{formatDateTime(p.expiresAt)}</span>
                </div>
              );
            },
          },
          {
            title: t('static.list.columns.login'),
            key: 'login',
            className: 'nowrap',
            render: (_v, p) => (
              <div className="static-login">
                <CopyableCode value={p.username} />
                <CopyableCode value={p.password} />
              </div>
            ),
          },
          {
            title: t('static.list.columns.traffic'),
            key: 'traffic',
            align: 'right',
            className: 'nowrap',
            render: (_v, p) => (
              <div className="static-traffic" data-testid="static-traffic">
                <div>{t('static.list.trafficToday', { bytes: formatBytes(p.bytesToday, lang) })}</div>
                <div className="static-traffic__month">{t('static.list.traffic30Days', { bytes: formatBytes(p.bytes30Days, lang) })}</div>
              </div>
            ),
          },
          {
            title: t('static.list.columns.remark'),
            key: 'remark',
            render: (_v, p) => (
              <Typography.Text
                type={p.remark ? undefined : 'secondary'}
                data-testid="static-remark"
                editable={{
                  text: p.remark ?? '',
                  maxLength: 100,
                  tooltip: t('static.list.editRemark'),
                  onChange: (next) => {
                    if (next.trim() !== (p.remark ?? '')) setRemark.mutate({ id: p.id, remark: next.trim() || null });
                  },
                }}
              >
                {p.remark ?? t('commerce.none')}
              </Typography.Text>
            ),
          },
          {
            title: t('static.list.columns.actions'),
            key: 'actions',
            fixed: actionsPin,
            className: 'nowrap',
            render: (_v, p) => (
              <Space direction="vertical" size={4}>
                <Button size="small" icon={<SyncOutlined />} disabled={p.status === 'released'} onClick={() => onRenew([p])} data-testid="static-renew-one">
                  {t('static.list.renew')}
                </Button>
                <Button size="small" icon={<SwapOutlined />} disabled={p.status !== 'active' || p.replacementsLeft <= 0} onClick={() => onReplace(p)} data-testid="static-replace">
                  {t('static.list.replaceLeft', { count: p.replacementsLeft })}
                </Button>
                <Button size="small" icon={<SafetyOutlined />} disabled={p.status === 'released'} onClick={() => onAllowlist(p)} data-testid="static-allowlist">
                  {t('static.list.allowlist')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}

function StaticLines({ proxy }: { proxy: StaticProxyDto }) {
  const lines = staticLines(proxy);
  return (
    <div className="static-lines" data-testid="static-lines" data-ip={proxy.ip}>
      <div>
        <Tag>HTTP</Tag>
        <CopyableCode value={lines.http} />
      </div>
      <div>
        <Tag>SOCKS5</Tag>
        <CopyableCode value={lines.socks5} />
      </div>
    </div>
  );
}
