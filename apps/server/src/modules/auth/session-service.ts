import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { UserRow } from '../../http/types';
import { type Clock, DAY, MINUTE, addMs, iso } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/secrets';

const SESSION_TTL = 7 * DAY;
/** Sliding expiry is written at most once a minute per session, not on every request. */
const TOUCH_EVERY = MINUTE;

type Conn = Kysely<Database> | Transaction<Database>;

/** Opaque bearer tokens (DESIGN §3): only their SHA-256 is stored, so a leaked table grants nothing. */
export class SessionService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async create(userId: number, meta: { ip: string | null; userAgent: string | null }, trx: Conn = this.db): Promise<string> {
    const token = newToken();
    const now = this.clock.now();
    await trx
      .insertInto('sessions')
      .values({
        token_hash: sha256(token),
        user_id: userId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(addMs(now, SESSION_TTL)),
        ip: meta.ip,
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
      })
      .execute();
    return token;
  }

  async authenticate(token: string): Promise<{ user: UserRow; sessionId: number } | null> {
    const now = this.clock.now();
    const session = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'last_seen_at', 'expires_at'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!session || session.expires_at <= iso(now)) return null;
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', session.user_id).executeTakeFirst();
    if (!user || user.status !== 'active') return null;
    if (now.getTime() - Date.parse(session.last_seen_at) >= TOUCH_EVERY) {
      await this.db
        .updateTable('sessions')
        .set({ last_seen_at: iso(now), expires_at: iso(addMs(now, SESSION_TTL)) })
        .where('id', '=', session.id)
        .execute();
    }
    return { user, sessionId: session.id };
  }

  async revoke(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  /** Signs the user out everywhere, except the session given (the one that changed the password). */
  async revokeAllOf(userId: number, exceptSessionId: number | null = null, trx: Conn = this.db): Promise<void> {
    let q = trx.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptSessionId !== null) q = q.where('id', '!=', exceptSessionId);
    await q.execute();
  }
}
