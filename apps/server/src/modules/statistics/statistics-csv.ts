import type { MarginRow, StatisticsDto } from '@resi/contract';
import type { CsvColumn } from '../exports/csv';
import { decimalAmount, wordsAndCode } from '../exports/csv';
import { type CsvSection, csvSection } from '../exports/csv-sections';

type Row = StatisticsDto['rows'][number] & { currency: string };

/** Columns of the Statistics export (`/manage/statistics?token=`): one row per period, then the totals. */
export const statisticsCsvColumns: CsvColumn<Row>[] = [
  { key: 'period', value: (r) => r.period },
  { key: 'registrations', value: (r) => r.registrations },
  { key: 'payingUsers', value: (r) => r.payingUsers },
  { key: 'newPayingUsers', value: (r) => r.newPayingUsers },
  { key: 'orders', value: (r) => r.orders },
  { key: 'revenue', value: (r) => decimalAmount(r.revenue, r.currency) },
  { key: 'refunds', value: (r) => decimalAmount(r.refunds, r.currency) },
  { key: 'commission', value: (r) => decimalAmount(r.commission, r.currency) },
  { key: 'currency', value: (r) => r.currency },
  { key: 'trafficBytes', value: (r) => r.trafficBytes },
];

/** The report's periods and a last row of totals, labelled `totalLabel`. */
export function statisticsCsvRows(report: StatisticsDto, totalLabel: string): Row[] {
  const { currency } = report;
  return [...report.rows.map((row) => ({ ...row, currency })), { period: totalLabel, ...report.totals, currency }];
}

/** A margin row, or the totals (no kind, region or provider). */
type MarginLine = Omit<MarginRow, 'kind'> & { kind: MarginRow['kind'] | null; currency: string };

/**
 * A decimal amount; a negative one (a loss) as a number: the formula escaping would turn the text `-4.00`
 * into `'-4.00`, which a spreadsheet cannot add up, and leaves numbers alone.
 */
const money = (value: (r: MarginLine) => number | null) => (r: MarginLine) => {
  const v = value(r);
  if (v === null) return null;
  const text = decimalAmount(v, r.currency);
  return v < 0 ? Number(text) : text;
};

/** Columns of the export's second table, the margin (docs/business-rules.md#margin). */
export const marginCsvColumns: CsvColumn<MarginLine>[] = [
  { key: 'period', value: (r) => r.period },
  ...wordsAndCode<MarginLine>('kind', 'marginKind', (r) => r.kind),
  { key: 'region', value: (r) => r.region },
  { key: 'providerId', value: (r) => r.providerId },
  { key: 'provider', value: (r) => r.providerName },
  { key: 'bytes', value: (r) => r.bytes },
  { key: 'revenue', value: money((r) => r.revenue) },
  { key: 'cost', value: money((r) => r.cost) },
  { key: 'margin', value: money((r) => r.margin) },
  { key: 'revenuePerGb', value: money((r) => r.revenuePerGb) },
  { key: 'costPerGb', value: money((r) => r.costPerGb) },
  { key: 'marginPerGb', value: money((r) => r.marginPerGb) },
  { key: 'currency', value: (r) => r.currency },
];

/** The margin rows and a last row of totals, labelled `totalLabel`. */
export function marginCsvRows(report: StatisticsDto, totalLabel: string): MarginLine[] {
  const { currency } = report;
  const totals: MarginLine = { period: totalLabel, kind: null, region: null, providerId: null, providerName: null, ...report.margin.totals, currency };
  return [...report.margin.rows.map((row) => ({ ...row, currency })), totals];
}

/** The export's file: the periods, then (after an empty line) the margin, each table with its header row and totals. */
export function statisticsCsvSections(report: StatisticsDto, totalLabel: string): CsvSection[] {
  return [csvSection('statistics', statisticsCsvColumns, statisticsCsvRows(report, totalLabel)), csvSection('statisticsMargin', marginCsvColumns, marginCsvRows(report, totalLabel))];
}
