import type { AdminUserDto } from '@resi/contract';
import type { UserRow } from '../../db/rows';
import { toUserDto } from '../auth/user-dto';

export function toAdminUserDto(u: UserRow): AdminUserDto {
  return { ...toUserDto(u), referrerId: u.referrer_id, channelKey: u.channel_key, channelValue: u.channel_value };
}
