import type { UserRow } from '../../db/rows';
import type { CsvColumn } from '../exports/csv';

/** Columns of the user list's CSV export (`/manage/user?token=`). */
export const userCsvColumns: CsvColumn<UserRow>[] = [
  { key: 'id', value: (u) => u.id },
  { key: 'email', value: (u) => u.email },
  { key: 'account', value: (u) => u.account },
  { key: 'role', value: (u) => u.role },
  { key: 'isDistributor', value: (u) => (u.is_distributor === 1 ? 'true' : 'false') },
  { key: 'status', value: (u) => u.status },
  { key: 'inviteCode', value: (u) => u.invite_code },
  { key: 'referrerId', value: (u) => u.referrer_id },
  // Channel parameters come straight from a registration link anyone can craft: the formula escape matters here.
  { key: 'channelKey', value: (u) => u.channel_key },
  { key: 'channelValue', value: (u) => u.channel_value },
  { key: 'createdAt', value: (u) => u.created_at },
  { key: 'lastLoginAt', value: (u) => u.last_login_at },
];
