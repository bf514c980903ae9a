import { type CsvColumn, wordsAndCode } from '../exports/csv';
import type { LoginLogListRow } from './login-analysis-repository';

/** Columns of the login analysis' CSV export (`/manage/logs?token=`): the result in words, beside its code so a sheet can filter it. */
export const loginLogCsvColumns: CsvColumn<LoginLogListRow>[] = [
  { key: 'at', value: (r) => r.created_at },
  { key: 'userId', value: (r) => r.user_id },
  { key: 'email', value: (r) => r.email },
  // Typed by whoever tried to sign in, and the user agent is theirs too: the formula escape matters here.
  { key: 'account', value: (r) => r.account },
  { key: 'ip', value: (r) => r.ip },
  { key: 'userAgent', value: (r) => r.user_agent },
  ...wordsAndCode<LoginLogListRow>('result', 'loginResult', (r) => r.result),
];
