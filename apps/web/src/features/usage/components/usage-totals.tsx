import { normalizeLang } from '@resi/contract';
import { Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@/lib/format';

/** Upload, download and their sum over every row of the filters (not only the page shown). */
export function UsageTotals({ bytesUp, bytesDown }: { bytesUp: number; bytesDown: number }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const items = [
    { key: 'up', value: bytesUp },
    { key: 'down', value: bytesDown },
    { key: 'total', value: bytesUp + bytesDown },
  ] as const;
  return (
    // The box wraps the row: a gutter's negative margins would push the row's own background past the card.
    <div className="usage-record-totals" data-testid="usage-record-totals">
      <Row gutter={[24, 16]}>
        {items.map((item) => (
          <Col xs={24} sm={8} key={item.key}>
            <Statistic title={t(`usage.totals.${item.key}`)} value={formatBytes(item.value, lang)} data-testid={`usage-record-total-${item.key}`} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
