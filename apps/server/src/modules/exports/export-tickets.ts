import type { Kysely } from 'kysely';
import type { UserRow } from '../../db/rows';
import type { Database } from '../../db/schema';
import { type Clock, addMs, iso } from '../../lib/clock';
import { newToken, sha256 } from '../../lib/secrets';
import { UserRepository } from '../auth/user-repository';
import { ExportTicketRepository } from './export-ticket-repository';

/** A ticket lives long enough for the new tab to open, and no longer (docs/api.md#csv-exports). */
export const EXPORT_TICKET_TTL_MS = 60_000;

/**
 * Single-use tickets that sign in one CSV download opened in a new tab, where no Authorization header
 * can be sent. Like session tokens they are 32 random bytes of which only the SHA-256 is stored.
 */
export class ExportTicketService {
  private readonly tickets: ExportTicketRepository;
  private readonly users: UserRepository;

  constructor(
    db: Kysely<Database>,
    private readonly clock: Clock,
  ) {
    this.tickets = new ExportTicketRepository(db);
    this.users = new UserRepository(db);
  }

  async issue(userId: number, sessionId: number): Promise<string> {
    const ticket = newToken();
    const now = this.clock.now();
    // Expired tickets are worthless: each new one sweeps them away, so the table stays a handful of rows.
    await this.tickets.removeExpired(iso(now));
    await this.tickets.insert({ ticket_hash: sha256(ticket), user_id: userId, session_id: sessionId, expires_at: iso(addMs(now, EXPORT_TICKET_TTL_MS)), used_at: null });
    return ticket;
  }

  /**
   * Spends a ticket and answers its user, or null when it is unknown, used, expired, its session has
   * ended (logout, password change or reset, expiry) or its user is disabled. One conditional update
   * spends it, so of two requests racing for a ticket only one wins.
   */
  async redeem(ticket: string): Promise<UserRow | null> {
    const now = iso(this.clock.now());
    const userId = await this.tickets.spend(sha256(ticket), now);
    if (userId === undefined) return null;
    const user = await this.users.findById(userId);
    return user?.status === 'active' ? user : null;
  }
}
