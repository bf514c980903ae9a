import type { LoginLogDto } from '@resi/contract';
import type { LoginLogListRow } from './login-analysis-repository';

export const toLoginLogDto = (r: LoginLogListRow): LoginLogDto => ({
  id: r.id,
  at: r.created_at,
  userId: r.user_id,
  email: r.email,
  account: r.account,
  ip: r.ip,
  userAgent: r.user_agent,
  result: r.result,
});
