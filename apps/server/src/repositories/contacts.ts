import type { AddressBook } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';

export interface ContactRow {
  id: string;
  accountId: number;
  book: AddressBook;
  localId: string;
  /** Last change, epoch ms; distinct within an account. */
  date: number;
}

const cols = ['id', 'account_id as accountId', 'book', 'local_id as localId', 'date'] as const;

/** The cloud address book. Every query is scoped by the owning account: no call reads another's. */
export const contactsRepo = {
  /**
   * Serialises the address-book changes of one account (transaction-scoped advisory lock), so the
   * change dates handed out stay distinct and increasing.
   */
  async lockAccount(tx: Tx, accountId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('contacts:' || ${accountId}::text, 0))`.execute(
      tx,
    );
  },

  /** The account's latest change date (null: no contact yet). */
  async maxDate(q: Q, accountId: number): Promise<number | null> {
    const row = await q
      .selectFrom('contacts')
      .select((eb) => eb.fn.max('date').as('max'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.max ?? null;
  },

  async count(q: Q, accountId: number): Promise<number> {
    const row = await q
      .selectFrom('contacts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.n ?? 0;
  },

  /** Entries changed after `since`, older than `startTime`, newest first; one more than asked tells if more follow. */
  async page(
    q: Q,
    accountId: number,
    p: { limit: number; since?: number | undefined; startTime?: number | undefined },
  ): Promise<ContactRow[]> {
    let query = q.selectFrom('contacts').select(cols).where('account_id', '=', accountId);
    if (p.since !== undefined) query = query.where('date', '>', p.since);
    if (p.startTime !== undefined) query = query.where('date', '<', p.startTime);
    return query.orderBy('date', 'desc').limit(p.limit).execute();
  },

  async insert(q: Q, c: { id: string; accountId: number; book: AddressBook; date: number }): Promise<void> {
    await q
      .insertInto('contacts')
      .values({ id: c.id, account_id: c.accountId, book: JSON.stringify(c.book), date: c.date })
      .execute();
  },

  /** Replaces a contact of this account; false when the id is not one of its contacts. */
  async update(
    q: Q,
    c: { id: string; accountId: number; book: AddressBook; date: number },
  ): Promise<boolean> {
    const row = await q
      .updateTable('contacts')
      .set({ book: JSON.stringify(c.book), date: c.date })
      .where('id', '=', c.id)
      .where('account_id', '=', c.accountId)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Deletes those of the ids that are this account's contacts; returns how many went. */
  async deleteMany(q: Q, accountId: number, ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    const rows = await q
      .deleteFrom('contacts')
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .returning('id')
      .execute();
    return rows.length;
  },
};
