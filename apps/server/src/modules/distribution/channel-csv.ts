import type { ChannelStats } from '@resi/contract';
import type { CsvColumn } from '../exports/csv';
import { decimalAmount } from '../exports/csv';

type Row = Omit<ChannelStats['rows'][number], 'channelKey'> & { channelKey: string; currency: string };

/** Columns of the Channel Statistics export (`/distribution/channel?token=`): one row per day and channel, then the totals. */
export const channelCsvColumns: CsvColumn<Row>[] = [
  { key: 'day', value: (r) => r.day },
  { key: 'channelKey', value: (r) => r.channelKey },
  { key: 'channelValue', value: (r) => r.channelValue },
  { key: 'visits', value: (r) => r.visits },
  { key: 'registrations', value: (r) => r.registrations },
  { key: 'payingUsers', value: (r) => r.payingUsers },
  { key: 'orders', value: (r) => r.orders },
  { key: 'revenue', value: (r) => decimalAmount(r.revenue, r.currency) },
  { key: 'currency', value: (r) => r.currency },
];

/** The funnel's rows and a last row of totals, labelled `totalLabel` in the day column. */
export function channelCsvRows(stats: ChannelStats, totalLabel: string): Row[] {
  const { currency } = stats;
  return [...stats.rows.map((row) => ({ ...row, currency })), { day: totalLabel, channelKey: '', channelValue: '', ...stats.totals, currency }];
}
