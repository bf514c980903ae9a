import { normalizeLang } from '@resi/contract';
import { Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@/lib/format';

/**
 * Upload, download and their sum over every row of the filters (not only the page shown). `totals` undefined:
 * still loading, shown as the three figures with their values to come, so the table below stays put.
 */
export function UsageTotals({ totals }: { totals: { bytesUp: number; bytesDown: number } | undefined }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const items = [
    { key: 'up', value: totals?.bytesUp },
    { key: 'down', value: totals?.bytesDown },
    { key: 'total', value: totals ? totals.bytesUp + totals.bytesDown : undefined },
  ] as const;
  const loading = totals === undefined;
  return (
    // The box wraps the row: a gutter's negative margins would push the row's own background past the card.
    <div className="usage-record-totals" data-testid="usage-record-totals">
      <Row gutter={[24, 16]}>
        {items.map((item) => (
          <Col xs={24} sm={8} key={item.key}>
            <Statistic
              title={t(`usage.totals.${item.key}`)}
              value={item.value === undefined ? '' : formatBytes(item.value, lang)}
              loading={loading}
              data-testid={loading ? undefined : `usage-record-total-${item.key}`}
            />
          </Col>
        ))}
      </Row>
    </div>
  );
}
