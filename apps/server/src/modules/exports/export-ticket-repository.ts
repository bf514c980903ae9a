import type { Insertable, Kysely } from 'kysely';
import type { Database, ExportTicketTable } from '../../db/schema';

export class ExportTicketRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async removeExpired(now: string): Promise<void> {
    await this.db.deleteFrom('export_tickets').where('expires_at', '<=', now).execute();
  }

  async insert(ticket: Insertable<ExportTicketTable>): Promise<void> {
    await this.db.insertInto('export_tickets').values(ticket).execute();
  }

  /**
   * Spends the ticket if it is unused, unexpired and its session still lives; answers its user's id, or
   * undefined. One conditional update, so of two requests racing for a ticket only one wins.
   */
  async spend(ticketHash: string, now: string): Promise<number | undefined> {
    const spent = await this.db
      .updateTable('export_tickets')
      .set({ used_at: now })
      .where('ticket_hash', '=', ticketHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where((eb) =>
        eb.exists(eb.selectFrom('sessions').select('sessions.id').whereRef('sessions.id', '=', 'export_tickets.session_id').where('sessions.expires_at', '>', now)),
      )
      .returning('user_id')
      .executeTakeFirst();
    return spent?.user_id;
  }
}
