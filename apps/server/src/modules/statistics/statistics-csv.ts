import type { StatisticsDto } from '@resi/contract';
import type { CsvColumn } from '../exports/csv';
import { decimalAmount } from '../exports/csv';

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
