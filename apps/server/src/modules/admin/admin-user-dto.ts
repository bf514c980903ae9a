import type { AdminUserDetail, AdminUserDto } from '@resi/contract';
import { toUserDto } from '../auth/user-dto';
import type { GrantRow } from '../traffic/traffic-repository';
import type { UserDetailRepository } from './user-detail-repository';
import type { AdminUserRow } from './user-list-repository';

export function toAdminUserDto(u: AdminUserRow, currency: string): AdminUserDto {
  return {
    ...toUserDto(u),
    referrerId: u.referrer_id,
    referrerEmail: u.referrer_email,
    channelKey: u.channel_key,
    channelValue: u.channel_value,
    commissionRate: u.commission_rate === null ? null : Number(u.commission_rate),
    remark: u.remark,
    lastLoginIp: u.last_login_ip,
    balanceBytes: u.balance_bytes,
    activeStaticIps: u.active_static_ips,
    paidTotal: u.paid_total,
    currency,
  };
}

type Rows<K extends keyof UserDetailRepository> = Awaited<ReturnType<UserDetailRepository[K]>>;

/** Audit rows keep before/after as JSON text. */
const parsed = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

export function toAdminUserDetail(
  user: AdminUserRow,
  currency: string,
  parts: { grants: GrantRow[]; accounts: Rows<'proxyAccounts'>; statics: Rows<'staticIps'>; orders: Rows<'orders'>; logins: Rows<'logins'>; audit: Rows<'audit'> },
): Omit<AdminUserDetail, 'apiKeys'> {
  return {
    user: toAdminUserDto(user, currency),
    grants: parts.grants.map((g) => ({ id: g.id, orderNo: g.order_no, bytes: Number(g.bytes), usedBytes: Number(g.used_bytes), expiresAt: g.expires_at, createdAt: g.created_at })),
    proxyAccounts: parts.accounts.map((a) => ({
      id: a.id,
      username: a.username,
      kind: a.kind,
      status: a.status,
      limitBytes: a.limit_bytes === null ? null : Number(a.limit_bytes),
      usedBytes: Number(a.used_bytes),
      remark: a.remark,
      createdAt: a.created_at,
    })),
    staticIps: parts.statics.map((s) => ({ id: s.id, ip: s.exit_ip, country: s.country, status: s.status, startsAt: s.starts_at, expiresAt: s.expires_at })),
    orders: parts.orders.map((o) => ({
      orderNo: o.order_no,
      kind: o.kind,
      status: o.status,
      amount: Number(o.amount),
      currency: o.currency,
      payMethod: o.pay_method,
      createdAt: o.created_at,
      paidAt: o.paid_at,
    })),
    logins: parts.logins.map((l) => ({ at: l.created_at, ip: l.ip, userAgent: l.user_agent, result: l.result })),
    audit: parts.audit.map((a) => ({ at: a.created_at, actorId: a.actor_id, actorEmail: a.actor_email, action: a.action, before: parsed(a.before), after: parsed(a.after) })),
  };
}
