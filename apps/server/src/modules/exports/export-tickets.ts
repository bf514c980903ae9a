import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { UserRow } from '../../db/rows';
import { type Clock, addMs, iso } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/secrets';

/** A ticket lives long enough for the new tab to open, and no longer (DESIGN §3 Exports). */
export const EXPORT_TICKET_TTL_MS = 60_000;

/**
 * Single-use tickets that sign in one CSV download opened in a new tab, where no Authorization header
 * can be sent. Like session tokens they are 32 random bytes of which only the SHA-256 is stored.
 */
export class ExportTicketService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async issue(userId: number, sessionId: number): Promise<string> {
    const ticket = newToken();
    const now = this.clock.now();
    // Expired tickets are worthless: each new one sweeps them away, so the table stays a handful of rows.
    await this.db.deleteFrom('export_tickets').where('expires_at', '<=', iso(now)).execute();
    await this.db
      .insertInto('export_tickets')
      .values({ ticket_hash: sha256(ticket), user_id: userId, session_id: sessionId, expires_at: iso(addMs(now, EXPORT_TICKET_TTL_MS)), used_at: null })
      .execute();
    return ticket;
  }

  /**
   * Spends a ticket and answers its user, or null when it is unknown, used, expired, its session has
   * ended (logout, password change or reset, expiry) or its user is disabled. One conditional update
   * spends it, so of two requests racing for a ticket only one wins.
   */
  async redeem(ticket: string): Promise<UserRow | null> {
    const now = iso(this.clock.now());
    const spent = await this.db
      .updateTable('export_tickets')
      .set({ used_at: now })
      .where('ticket_hash', '=', sha256(ticket))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where((eb) =>
        eb.exists(eb.selectFrom('sessions').select('sessions.id').whereRef('sessions.id', '=', 'export_tickets.session_id').where('sessions.expires_at', '>', now)),
      )
      .returning('user_id')
      .executeTakeFirst();
    if (!spent) return null;
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', spent.user_id).executeTakeFirst();
    return user?.status === 'active' ? user : null;
  }
}
