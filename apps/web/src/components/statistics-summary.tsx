import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { normalizeLang, type StatisticsSummary, type StatisticsSummaryBlock } from '@resi/contract';
import { Col, Row, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount, formatMoney, INTL_LOCALE, numberFormat } from '@/lib/format';

const FIGURES = ['revenue', 'orders', 'registrations'] as const;

function Growth({ ratio, testId }: { ratio: number | null; testId: string }) {
  const { t, i18n } = useTranslation();
  if (ratio === null) {
    return (
      <Tooltip title={t('statistics.summary.noPrevious')}>
        <span className="statistics-growth statistics-growth--none" data-testid={testId}>
          —
        </span>
      </Tooltip>
    );
  }
  const percent = numberFormat(INTL_LOCALE[normalizeLang(i18n.language)], { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(ratio);
  const direction = ratio > 0 ? 'up' : ratio < 0 ? 'down' : 'flat';
  return (
    <span className={`statistics-growth statistics-growth--${direction}`} data-testid={testId}>
      {ratio > 0 ? <ArrowUpOutlined /> : ratio < 0 ? <ArrowDownOutlined /> : null} {percent}
    </span>
  );
}

function Block({ name, block, currency }: { name: 'today' | 'thisMonth'; block: StatisticsSummaryBlock; currency: string }) {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const value = (figure: (typeof FIGURES)[number], v: number) => (figure === 'revenue' ? formatMoney(v, currency, lang) : formatCount(v, lang));
  return (
    <div className="statistics-summary__block" data-testid={`statistics-summary-${name}`}>
      <Typography.Text strong>{t(`statistics.summary.${name}`)}</Typography.Text>
      <div className="statistics-summary__figures">
        {FIGURES.map((figure) => (
          <div key={figure} className="statistics-summary__figure">
            <span className="muted">{t(`statistics.figures.${figure}`)}</span>
            <span className="statistics-summary__value" data-testid={`statistics-summary-${name}-${figure}`}>
              {value(figure, block.current[figure])}
            </span>
            <span className="statistics-summary__compare">
              <Growth ratio={block.growth[figure]} testId={`statistics-summary-${name}-${figure}-growth`} />
              <span className="muted">
                {t(`statistics.summary.previous.${name}`)} {value(figure, block.previous[figure])}
              </span>
            </span>
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * Today and this month so far (UTC), each against the same stretch of the period before: on Statistics
 * and on an admin's Account Home.
 */
export function StatisticsSummaryCards({ summary, currency }: { summary: StatisticsSummary; currency: string }) {
  return (
    <Row gutter={[16, 16]} className="statistics-summary">
      <Col xs={24} lg={12}>
        <Block name="today" block={summary.today} currency={currency} />
      </Col>
      <Col xs={24} lg={12}>
        <Block name="thisMonth" block={summary.thisMonth} currency={currency} />
      </Col>
    </Row>
  );
}
