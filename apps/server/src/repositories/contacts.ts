import type { AddressBook } from '@numa/contract';
import type { Queryable } from '../db';

export interface ContactRow {
  id: string;
  accountId: number;
  book: AddressBook;
  localId: string;
  /** Last change, epoch ms; distinct within an account. */
  date: number;
}

const cols = `id, account_id AS "accountId", book, local_id AS "localId", date`;

/** The cloud address book. Every query is scoped by the owning account: no call reads another's. */
export const contactsRepo = {
  /**
   * Serialises the address-book changes of one account (transaction-scoped advisory lock), so the
   * change dates handed out stay distinct and increasing.
   */
  async lockAccount(q: Queryable, accountId: number): Promise<void> {
    await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('contacts:' || $1::text, 0))`, [accountId]);
  },

  /** The next change date: now, or one past the account's latest when the clock has not moved on. */
  async nextDate(q: Queryable, accountId: number): Promise<number> {
    const [row] = await q.query<{ max: number | null }>(`SELECT max(date) AS max FROM contacts WHERE account_id = $1`, [accountId]);
    return Math.max(Date.now(), (row?.max ?? 0) + 1);
  },

  async count(q: Queryable, accountId: number): Promise<number> {
    const [row] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE account_id = $1`, [accountId]);
    return row?.n ?? 0;
  },

  /** Entries changed after `since`, older than `startTime`, newest first; one more than asked tells if more follow. */
  async page(q: Queryable, accountId: number, p: { limit: number; since?: number | undefined; startTime?: number | undefined }): Promise<ContactRow[]> {
    return q.query<ContactRow>(
      `SELECT ${cols} FROM contacts
        WHERE account_id = $1 AND ($2::bigint IS NULL OR date > $2) AND ($3::bigint IS NULL OR date < $3)
        ORDER BY date DESC LIMIT $4`,
      [accountId, p.since ?? null, p.startTime ?? null, p.limit],
    );
  },

  async insert(q: Queryable, c: { id: string; accountId: number; book: AddressBook; date: number }): Promise<void> {
    await q.query(`INSERT INTO contacts (id, account_id, book, date) VALUES ($1, $2, $3, $4)`, [
      c.id,
      c.accountId,
      JSON.stringify(c.book),
      c.date,
    ]);
  },

  /** Replaces a contact of this account; false when the id is not one of its contacts. */
  async update(q: Queryable, c: { id: string; accountId: number; book: AddressBook; date: number }): Promise<boolean> {
    const rows = await q.query(`UPDATE contacts SET book = $3, date = $4 WHERE id = $1 AND account_id = $2 RETURNING id`, [
      c.id,
      c.accountId,
      JSON.stringify(c.book),
      c.date,
    ]);
    return rows.length === 1;
  },

  /** Deletes those of the ids that are this account's contacts; returns how many went. */
  async deleteMany(q: Queryable, accountId: number, ids: readonly string[]): Promise<number> {
    const rows = await q.query(`DELETE FROM contacts WHERE account_id = $1 AND id = ANY($2::text[]) RETURNING id`, [accountId, [...ids]]);
    return rows.length;
  },
};
