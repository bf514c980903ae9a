import type { Kysely, Transaction } from 'kysely';
import type { UserRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, DAY, MINUTE, addMs, iso } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/secrets';
import { SessionCache } from './session-cache';
import { SessionRepository } from './session-repository';

const SESSION_TTL = 7 * DAY;
type SignedIn = { user: UserRow; sessionId: number };
/** Sliding expiry is written at most once a minute per session, not on every request. */
const TOUCH_EVERY = MINUTE;

/** Opaque bearer tokens (docs/api.md#sign-in-and-roles): only their SHA-256 is stored, so a leaked table grants nothing. */
export class SessionService {
  private readonly sessions: SessionRepository;
  private readonly cache: SessionCache | null;

  /** `storeVersion`: the store's change counter (db/database.ts); without one every request asks the store. */
  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
    storeVersion?: () => number,
  ) {
    this.sessions = new SessionRepository(db);
    this.cache = storeVersion ? new SessionCache(storeVersion) : null;
  }

  async create(userId: number, meta: { ip: string | null; userAgent: string | null }, trx?: Transaction<Database>): Promise<string> {
    const token = newToken();
    const now = this.clock.now();
    await this.sessions.insert(
      {
        token_hash: sha256(token),
        user_id: userId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(addMs(now, SESSION_TTL)),
        ip: meta.ip,
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
      },
      trx,
    );
    return token;
  }

  /**
   * What `authenticate` would answer, when the session cache can say it without the store: a signed-in
   * request then needs no turn of the event loop. Undefined: ask `authenticate`.
   */
  remembered(token: string): SignedIn | undefined {
    if (!this.cache) return undefined;
    this.cache.current();
    return this.fromCache(sha256(token), this.clock.now().getTime());
  }

  async authenticate(token: string): Promise<SignedIn | null> {
    const now = this.clock.now();
    const tokenHash = sha256(token);
    const readAt = this.cache?.current();
    const hit = this.fromCache(tokenHash, now.getTime());
    if (hit) return hit;

    const row = await this.sessions.findWithUser(tokenHash);
    if (!row || row.session_expires_at <= iso(now)) return null;
    const { session_id, session_seen_at, session_expires_at, ...user } = row;
    if (user.status !== 'active') return null;
    const touchDueAt = Date.parse(session_seen_at) + TOUCH_EVERY;
    if (now.getTime() >= touchDueAt) {
      await this.sessions.touch(session_id, iso(now), iso(addMs(now, SESSION_TTL)));
    } else if (this.cache && readAt !== undefined) {
      // Frozen: one object now serves many requests, and none may change it for the others.
      this.cache.set(tokenHash, { user: Object.freeze(user), sessionId: session_id, expiresAt: Date.parse(session_expires_at), touchDueAt }, readAt);
    }
    return { user, sessionId: session_id };
  }

  /**
   * A cached answer, while neither the session's expiry nor its next sliding-expiry write is due. The
   * caller has just checked the store's version (`cache.current()`).
   */
  private fromCache(tokenHash: string, now: number): SignedIn | undefined {
    const hit = this.cache?.get(tokenHash);
    return hit && now < hit.expiresAt && now < hit.touchDueAt ? { user: hit.user, sessionId: hit.sessionId } : undefined;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.sessions.remove(sessionId);
  }

  /** Signs the user out everywhere, except the session given (the one that changed the password). */
  async revokeAllOf(userId: number, exceptSessionId: number | null = null, trx?: Transaction<Database>): Promise<void> {
    await this.sessions.removeAllOf(userId, exceptSessionId, trx);
  }
}
