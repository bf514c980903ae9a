import { API_KEYS_MAX, type ApiKeyDto, type ApiKeyScope, type CreateApiKeyBody, type CreatedApiKeyDto } from '@resi/contract';
import ipaddr from 'ipaddr.js';
import type { Kysely, Transaction } from 'kysely';
import type { UserRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { clientAddress, masked } from '../../lib/allowlist-address';
import { type Clock, iso } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/secrets';
import { AppError } from '../../shared/errors';
import type { ApiKeyAuth } from '../../shared/key-scope';
import { UserRepository } from '../auth/user-repository';
import { type ApiKeyListRow, ApiKeyRepository, type ApiKeyRow } from './api-key-repository';

export type { ApiKeyAuth };
export type ApiKeyCheck = { user: UserRow; key: ApiKeyAuth } | { refused: 'API_KEY_INVALID' } | { refused: 'API_KEY_ADDRESS'; ip: string };

/** `rk_` and 43 characters: never the length of a session token (43), so the guard knows which it holds. */
const KEY_PREFIX = 'rk_';
export const isApiKey = (token: string): boolean => token.startsWith(KEY_PREFIX) && token.length === KEY_PREFIX.length + 43;
/** `rk_` and the secret's first 8 characters: enough to tell a customer's keys apart, far too little to guess the rest. */
const prefixOf = (key: string): string => key.slice(0, KEY_PREFIX.length + 8);

/** Requests counted in this process are written at most this often (and when the app closes). */
const FLUSH_EVERY_MS = 5000;

const dayOf = (d: Date) => iso(d).slice(0, 10);

/** An address or CIDR of any width (a company's network may be wide), canonical; null when it is not one. */
function parseCallerRange(text: string): string | null {
  try {
    if (text.includes('/')) {
      const [addr, bits] = ipaddr.parseCIDR(text);
      return `${ipaddr.fromByteArray(masked(addr.toByteArray(), bits)).toString()}/${bits}`;
    }
    return ipaddr.process(text).toString();
  } catch {
    return null;
  }
}

function callerAllowed(allowlist: readonly string[], ip: string): boolean {
  if (allowlist.length === 0) return true;
  const addr = clientAddress(ip);
  if (!addr) return false;
  return allowlist.some((entry) => {
    const range = entry.includes('/') ? ipaddr.parseCIDR(entry) : ([ipaddr.parse(entry), entry.includes(':') ? 128 : 32] as [ipaddr.IPv4 | ipaddr.IPv6, number]);
    return range[0].kind() === addr.kind() && addr.match(range);
  });
}

export function toApiKeyDto(row: ApiKeyListRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.split(',') as ApiKeyScope[],
    expiresAt: row.expires_at,
    allowlist: JSON.parse(row.allowlist) as string[],
    dailySpendCap: row.daily_spend_cap,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    lastUsedIp: row.last_used_ip,
    callsToday: row.calls_today,
    spentToday: row.spent_today,
  };
}

/**
 * Customers' API keys (docs/api.md#programs): made, listed and revoked here, and checked on every request
 * that carries one. A key is looked up in the store on every request, not cached, so a revoked or expired
 * key is refused at once by every API process. Its calls are counted in memory and written every few seconds.
 */
export class ApiKeyService {
  private readonly keys: ApiKeyRepository;
  private readonly users: UserRepository;
  /** Calls not yet written, per key: the day they were made on, how many, and the latest use. */
  private readonly pending = new Map<number, { day: string; calls: number; lastAt: string; lastIp: string }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly onFlushError: (err: unknown) => void,
  ) {
    this.keys = new ApiKeyRepository(db);
    this.users = new UserRepository(db);
    this.timer = setInterval(() => void this.flush().catch(onFlushError), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** `t`: the request's texts, for what the body's schema cannot check (an expiry in the past, an address). */
  async create(userId: number, body: CreateApiKeyBody, t: (key: string) => string): Promise<CreatedApiKeyDto> {
    const now = this.clock.now();
    if (body.expiresAt && Date.parse(body.expiresAt) <= now.getTime()) throw new AppError('VALIDATION_FAILED', { detail: t('validation.apiKeyExpiry') });
    const allowlist: string[] = [];
    for (const text of body.allowlist ?? []) {
      const range = parseCallerRange(text);
      if (!range) throw new AppError('VALIDATION_FAILED', { detail: `${text}: ${t('validation.allowlistAddress')}` });
      if (!allowlist.includes(range)) allowlist.push(range);
    }
    const key = `${KEY_PREFIX}${newToken()}`;
    const scopes = [...new Set(body.scopes)];
    const row = await this.keys.insertWithin({
      user_id: userId,
      name: body.name,
      prefix: prefixOf(key),
      key_hash: sha256(key),
      scopes: scopes.join(','),
      allowlist: JSON.stringify(allowlist),
      // The cap only means something to a key that buys.
      daily_spend_cap: scopes.includes('buy') ? (body.dailySpendCap ?? null) : null,
      expires_at: body.expiresAt ? iso(new Date(body.expiresAt)) : null,
      created_at: iso(now),
    }, API_KEYS_MAX);
    if (!row) throw new AppError('API_KEYS_FULL', { max: API_KEYS_MAX });
    return { ...toApiKeyDto({ ...row, calls_today: 0, spent_today: 0 }), key };
  }

  async list(userId: number): Promise<ApiKeyDto[]> {
    await this.flush();
    const now = this.clock.now();
    const day = dayOf(now);
    return (await this.keys.listLive(userId, day, `${day}T00:00:00.000Z`)).map(toApiKeyDto);
  }

  /** Revokes a key of `userId`, or any user's when `userId` is null (an admin); 404 when there is no such live key. */
  async revoke(id: number, userId: number | null): Promise<ApiKeyRow> {
    const row = await this.keys.revoke(id, userId, iso(this.clock.now()));
    if (!row) throw new AppError('NOT_FOUND');
    this.pending.delete(id);
    return row;
  }

  /** The user and key a request's bearer key stands for, or why it is refused. Counts the call when admitted. */
  async check(token: string, ip: string): Promise<ApiKeyCheck> {
    const row = await this.keys.findByHash(sha256(token));
    const now = this.clock.now();
    if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= iso(now))) return { refused: 'API_KEY_INVALID' };
    const user = await this.users.findById(row.user_id);
    if (!user || user.status !== 'active') return { refused: 'API_KEY_INVALID' };
    if (!callerAllowed(JSON.parse(row.allowlist) as string[], ip)) return { refused: 'API_KEY_ADDRESS', ip };
    this.count(row.id, now, ip);
    return { user, key: { id: row.id, prefix: row.prefix, scopes: row.scopes.split(',') as ApiKeyScope[], dailySpendCap: row.daily_spend_cap } };
  }

  /**
   * Refuses an order of `amount` that would take the key past its daily cap. Call it in the transaction that
   * inserts the order, after the user's row is locked (orders' open-order cap does that on PostgreSQL; SQLite
   * writes one transaction at a time): two orders through one key then cannot both fit in the last room.
   */
  async assertWithinCap(key: ApiKeyAuth, amount: number, trx: Transaction<Database>): Promise<void> {
    if (key.dailySpendCap === null) throw new AppError('SCOPE_REQUIRED', { scope: 'buy' });
    const day = dayOf(this.clock.now());
    const spent = await this.keys.spentSince(key.id, `${day}T00:00:00.000Z`, trx);
    if (spent + amount > key.dailySpendCap) throw new AppError('API_KEY_SPEND_CAP', { cap: key.dailySpendCap });
  }

  private count(keyId: number, now: Date, ip: string): void {
    const day = dayOf(now);
    const at = iso(now);
    const entry = this.pending.get(keyId);
    if (entry && entry.day === day) {
      entry.calls += 1;
      entry.lastAt = at;
      entry.lastIp = ip;
      return;
    }
    // A new day: what was counted for the last one is written on its own.
    if (entry) void this.keys.recordUse(keyId, entry.day, entry.calls, entry.lastAt, entry.lastIp).catch(this.onFlushError);
    this.pending.set(keyId, { day, calls: 1, lastAt: at, lastIp: ip });
  }

  /** Writes the calls counted so far; each key's entry is taken before its write, so none is counted twice. */
  async flush(): Promise<void> {
    const entries = [...this.pending];
    this.pending.clear();
    for (const [keyId, e] of entries) await this.keys.recordUse(keyId, e.day, e.calls, e.lastAt, e.lastIp);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
