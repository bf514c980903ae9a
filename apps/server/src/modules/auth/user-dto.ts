import type { UserDto } from '@resi/contract';
import type { UserRow } from '../../db/rows';

export function toUserDto(u: UserRow): UserDto {
  return {
    id: u.id,
    email: u.email,
    account: u.account,
    role: u.role,
    isDistributor: u.is_distributor === 1,
    status: u.status,
    inviteCode: u.invite_code,
    lang: u.lang,
    createdAt: u.created_at,
    lastLoginAt: u.last_login_at,
  };
}
