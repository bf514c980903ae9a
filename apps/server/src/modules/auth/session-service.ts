import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { UserRow } from '../../db/rows';
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
    // One query for both: this runs on every signed-in request.
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .selectAll('u')
      .select(['s.id as session_id', 's.last_seen_at as session_seen_at', 's.expires_at as session_expires_at'])
      .where('s.token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row || row.session_expires_at <= iso(now)) return null;
    const { session_id, session_seen_at, session_expires_at: _expires, ...user } = row;
    if (user.status !== 'active') return null;
    const session = { id: session_id, last_seen_at: session_seen_at };
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
