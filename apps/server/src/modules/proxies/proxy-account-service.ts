import type { CreateProxyAccountBody, ProxyAccountDto, UpdateProxyAccountBody } from '@resi/contract';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/db-errors';
import type { Database } from '../../db/schema';
import { type Clock, iso } from '../../lib/clock';
import type { CutoffBus } from '../../lib/cutoff-bus';
import type { SealedBox } from '../../lib/sealed-box';
import { AppError } from '../../shared/errors';
import { type ProxyAccountRow, ProxyAccountRepository } from './proxy-account-repository';

/** Enough for any customer's tooling; stops a script from filling the table. */
export const MAX_PROXY_ACCOUNTS = 200;

type Row = ProxyAccountRow;

/** Rotating-residential sub-accounts (docs/business-rules.md#proxy-accounts): every query is scoped to the owner. */
export class ProxyAccountService {
  private readonly accounts: ProxyAccountRepository;

  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly box: SealedBox,
    /** Tells the gateways at once when an account is cut (disabled, deleted, new password, lower cap). */
    private readonly cutoffs?: Pick<CutoffBus, 'publish'>,
  ) {
    this.accounts = new ProxyAccountRepository(db);
  }

  async list(userId: number): Promise<ProxyAccountDto[]> {
    const [rows, prefixes] = await Promise.all([this.accounts.list(userId), this.accounts.extractKeyPrefixes(userId)]);
    return rows.map((r) => this.toDto(r, prefixes));
  }

  async get(userId: number, id: number): Promise<ProxyAccountDto> {
    const row = await this.accounts.find(userId, id);
    if (!row) throw new AppError('NOT_FOUND');
    return this.toDto(row, await this.accounts.extractKeyPrefixes(userId));
  }

  async create(userId: number, body: CreateProxyAccountBody): Promise<ProxyAccountDto> {
    if ((await this.accounts.count(userId)) >= MAX_PROXY_ACCOUNTS) throw new AppError('PROXY_ACCOUNT_LIMIT', { max: MAX_PROXY_ACCOUNTS });
    const now = iso(this.clock.now());
    try {
      const row = await this.accounts.insert({
        user_id: userId,
        username: body.username,
        password_sealed: this.box.seal(body.password),
        status: 'active',
        limit_bytes: body.limitBytes ?? null,
        max_connections: body.maxConnections ?? null,
        remark: body.remark ?? null,
        pause_at_cap: body.pauseAtCap === false ? 0 : 1,
        deleted_at: null,
        created_at: now,
        updated_at: now,
      });
      // The gateways learn of it now rather than at their next poll: a line pasted at once works at once.
      await this.cutoffs?.publish({ userId, accountId: row.id });
      return this.toDto(row, new Map());
    } catch (err) {
      // Usernames are proxy logins for everyone on the gateway: taken is taken, whoever holds it.
      if (isUniqueViolation(err)) throw new AppError('PROXY_USERNAME_TAKEN');
      throw err;
    }
  }

  async update(userId: number, id: number, body: UpdateProxyAccountBody): Promise<ProxyAccountDto> {
    const before = await this.accounts.find(userId, id);
    if (!before) throw new AppError('NOT_FOUND');
    const set: Partial<Row> = { updated_at: iso(this.clock.now()) };
    if (body.password !== undefined) set.password_sealed = this.box.seal(body.password);
    if (body.limitBytes !== undefined) set.limit_bytes = body.limitBytes;
    if (body.maxConnections !== undefined) set.max_connections = body.maxConnections;
    if (body.remark !== undefined) set.remark = body.remark;
    if (body.status !== undefined) set.status = body.status;
    if (body.requirePassword !== undefined) set.require_password = body.requirePassword ? 1 : 0;
    if (body.pauseAtCap !== undefined) set.pause_at_cap = body.pauseAtCap ? 1 : 0;
    const row = await this.accounts.update(userId, id, set);
    if (!row) throw new AppError('NOT_FOUND');
    // The edit form sends the password back unchanged: only a new one cuts the tunnels opened with the old.
    const newPassword = body.password !== undefined && body.password !== this.box.open(before.password_sealed);
    const disabled = row.status !== 'active' && before.status === 'active';
    const lowered = row.limit_bytes !== null && (before.limit_bytes === null || Number(row.limit_bytes) < Number(before.limit_bytes));
    // Re-enabled or given more room: admitted again at once, not at the gateways' next poll.
    const enabled = row.status === 'active' && before.status !== 'active';
    const raised = before.limit_bytes !== null && (row.limit_bytes === null || Number(row.limit_bytes) > Number(before.limit_bytes));
    // A new connection limit applies to the next connection on every gateway, not at their next poll.
    const limitChanged = (row.max_connections ?? null) !== (before.max_connections ?? null);
    // Password now required: connections its allowlisted addresses opened without one are cut (docs/gateway.md#allowlist).
    const passwordRule = row.require_password !== before.require_password;
    // Pausing at the cap or going on past it changes whether the cap is a limit at all.
    const capRule = row.pause_at_cap !== before.pause_at_cap;
    if (newPassword || disabled || lowered || enabled || raised || limitChanged || passwordRule || capRule) await this.cutoffs?.publish({ userId, accountId: id, closeLive: newPassword || undefined });
    return this.toDto(row, await this.accounts.extractKeyPrefixes(userId));
  }

  /**
   * Deleting keeps the row (marked deleted, disabled) so usage history stays whole; the username stays
   * reserved so old usage rows never appear under a stranger's new account.
   */
  async remove(userId: number, id: number): Promise<void> {
    const now = iso(this.clock.now());
    if (!(await this.accounts.markDeleted(userId, id, now))) throw new AppError('NOT_FOUND');
    await this.cutoffs?.publish({ userId, accountId: id });
  }

  private toDto(r: Row, extractPrefixes: Map<number, string>): ProxyAccountDto {
    return {
      id: r.id,
      username: r.username,
      password: this.box.open(r.password_sealed),
      status: r.status,
      limitBytes: r.limit_bytes === null ? null : Number(r.limit_bytes),
      usedBytes: Number(r.used_bytes),
      maxConnections: r.max_connections === null ? null : Number(r.max_connections),
      remark: r.remark,
      createdAt: r.created_at,
      loginFailures: Number(r.login_failures),
      lastLoginFailureAt: r.last_login_failure_at,
      requirePassword: Boolean(r.require_password),
      pauseAtCap: Boolean(r.pause_at_cap),
      extractKeyPrefix: extractPrefixes.get(r.id) ?? null,
    };
  }
}
