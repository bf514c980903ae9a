import { normalizeLang, type UsageRecordDto, type UsageRecordPage } from '@resi/contract';
import { Empty, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { PagedTable, type PagedQuery } from '@/components/paged-table';
import { formatBytes } from '@/lib/format';
import { countryLabel } from '@/lib/usage-data';
import { formatBucket } from './usage-record-values';

/** One row per time bucket, proxy account and country; paged by the server. A static IP's traffic is tagged and named by its IP. */
export function UsageRecordTable({ paged }: { paged: PagedQuery<UsageRecordPage> }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const bytes = (value: number) => formatBytes(value, lang);

  return (
    <PagedTable<UsageRecordDto>
      paged={paged}
      rowKey={(r) => `${r.bucket}|${r.accountId}|${r.country ?? ''}`}
      emptyText={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('usage.empty')} />}
      errorTitle={t('usage.error')}
      errorTestId="usage-record-error"
      columns={[
        { title: t('usage.columns.time'), dataIndex: 'bucket', className: 'nowrap', render: (bucket: string) => formatBucket(bucket, lang) },
        {
          title: t('usage.columns.account'),
          key: 'account',
          className: 'nowrap',
          render: (_v, r) => (
            <>
              {r.staticIp ? (
                <>
                  <Tag color="purple" data-testid="usage-static-tag">{t('usage.staticTag')}</Tag>
                  {r.staticIp}
                </>
              ) : (
                (r.username ?? `#${r.accountId}`)
              )}
              {r.accountDeleted ? <Tag className="usage-record-deleted">{t('usage.deleted')}</Tag> : null}
            </>
          ),
        },
        { title: t('usage.columns.country'), dataIndex: 'country', render: (country: string | null) => countryLabel(country, lang, t('usage.anyCountry')) },
        { title: t('usage.columns.up'), dataIndex: 'bytesUp', align: 'right', className: 'nowrap', render: bytes },
        { title: t('usage.columns.down'), dataIndex: 'bytesDown', align: 'right', className: 'nowrap', render: bytes },
        { title: t('usage.columns.total'), key: 'total', align: 'right', className: 'nowrap', render: (_v, r) => bytes(r.bytesUp + r.bytesDown) },
      ]}
    />
  );
}
