import { CopyOutlined, DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ProxyLinesQuery } from '@resi/contract';
import { Button, Card, Empty, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '@/lib/clipboard';
import { notify } from '@/lib/notify';
import { useExportProxyLines } from '../api/export-proxy-lines';

interface Props {
  lines: string[];
  query: ProxyLinesQuery | null;
  username: string | undefined;
  onRegenerate: () => void;
}

/** The generated lines in a monospace box, with copy all, download (the server's export) and new sessions. */
export function ProxyLinesCard({ lines, query, username, onRegenerate }: Props) {
  const { t } = useTranslation();
  const exporter = useExportProxyLines();

  const copyAll = async () => {
    if (await copyText(lines.join('\n'))) notify.success(t('proxy.lines.copied', { count: lines.length }));
    else notify.warning(t('proxy.lines.copyFailed'));
  };

  return (
    <Card
      variant="borderless"
      className="surface-card"
      title={t('proxy.lines.title', { count: lines.length })}
      extra={
        <Space wrap>
          {query?.sticky === '1' ? (
            <Button icon={<ReloadOutlined />} onClick={onRegenerate} data-testid="lines-regenerate">
              {t('proxy.lines.regenerate')}
            </Button>
          ) : null}
          <Button icon={<CopyOutlined />} onClick={() => void copyAll()} disabled={lines.length === 0} data-testid="lines-copy">
            {t('proxy.lines.copyAll')}
          </Button>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!query || !username}
            loading={exporter.isPending}
            onClick={() => query && username && exporter.mutate({ query, username })}
            data-testid="lines-download"
          >
            {t('proxy.lines.download')}
          </Button>
        </Space>
      }
      data-testid="proxy-lines-card"
    >
      {lines.length === 0 ? (
        <Empty description={t('proxy.lines.empty')} />
      ) : (
        <>
          <pre className="proxy-lines mono" data-testid="proxy-lines">
            {lines.join('\n')}
          </pre>
          {query?.sticky === '1' ? (
            <p className="muted">{t('proxy.lines.stickyNote')}</p>
          ) : lines.length > 1 ? (
            <p className="muted" data-testid="rotating-note">
              {t('proxy.lines.rotatingNote')}
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}
