import type { CsvColumn } from '../exports/csv';
import { decimalAmount, wordsAndCode } from '../exports/csv';
import type { AdminUserRow } from './user-list-repository';

/** Columns of the user list's CSV export (`/manage/user?token=`): role and status in words, each beside its code so filters in a sheet and programs work. */
export function userCsvColumns(currency: string): CsvColumn<AdminUserRow>[] {
  return [
    { key: 'id', value: (u) => u.id },
    { key: 'email', value: (u) => u.email },
    { key: 'account', value: (u) => u.account },
    ...wordsAndCode<AdminUserRow>('role', 'role', (u) => u.role),
    { key: 'isDistributor', value: (u) => (u.is_distributor === 1 ? 'true' : 'false') },
    { key: 'commissionRate', value: (u) => u.commission_rate },
    ...wordsAndCode<AdminUserRow>('status', 'userStatus', (u) => u.status),
    { key: 'inviteCode', value: (u) => u.invite_code },
    { key: 'referrerId', value: (u) => u.referrer_id },
    { key: 'referrerEmail', value: (u) => u.referrer_email },
    // Channel parameters come straight from a registration link anyone can craft: the formula escape matters here.
    { key: 'channelKey', value: (u) => u.channel_key },
    { key: 'channelValue', value: (u) => u.channel_value },
    { key: 'balanceBytes', value: (u) => u.balance_bytes },
    { key: 'activeStaticIps', value: (u) => u.active_static_ips },
    { key: 'paidTotal', value: (u) => decimalAmount(u.paid_total, currency) },
    { key: 'remark', value: (u) => u.remark },
    { key: 'createdAt', value: (u) => u.created_at },
    { key: 'lastLoginAt', value: (u) => u.last_login_at },
    { key: 'lastLoginIp', value: (u) => u.last_login_ip },
  ];
}
