import type { CsvColumn } from '../exports/csv';
import type { UsageRecordRow } from './usage-record-repository';

/** Columns of the Usage Record download: plain bytes and country codes, so a sheet can sum and filter. */
export const usageRecordCsvColumns: CsvColumn<UsageRecordRow>[] = [
  { key: 'bucket', value: (r) => r.bucket },
  { key: 'account', value: (r) => r.username ?? `#${r.account_id}` },
  { key: 'staticIp', value: (r) => r.static_ip },
  { key: 'country', value: (r) => r.country || null },
  { key: 'bytesUp', value: (r) => r.bytes_up },
  { key: 'bytesDown', value: (r) => r.bytes_down },
  { key: 'bytesTotal', value: (r) => r.bytes_up + r.bytes_down },
];
