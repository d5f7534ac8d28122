import { sql } from 'kysely';
import type { Q, Tx } from '../db';

export interface TemplateRow {
  id: number;
  name: string;
  text: string;
}

/** Saved replies (migration 131), always of one account. */
export const templatesRepo = {
  /** Holds the account's templates until the transaction ends (the limit is counted under it). */
  async lockAccount(tx: Tx, accountId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended('templates:' || ${accountId}::text, 0))`.execute(
      tx,
    );
  },

  async list(q: Q, accountId: number): Promise<TemplateRow[]> {
    return q
      .selectFrom('message_templates')
      .select(['id', 'name', 'text'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .orderBy('id')
      .execute();
  },

  async count(q: Q, accountId: number): Promise<number> {
    const row = await q
      .selectFrom('message_templates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insert(q: Q, accountId: number, name: string, text: string): Promise<TemplateRow> {
    return q
      .insertInto('message_templates')
      .values({ account_id: accountId, name, text })
      .returning(['id', 'name', 'text'])
      .executeTakeFirstOrThrow();
  },

  async update(q: Q, accountId: number, id: number, name: string, text: string): Promise<TemplateRow | null> {
    const row = await q
      .updateTable('message_templates')
      .set({ name, text, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returning(['id', 'name', 'text'])
      .executeTakeFirst();
    return row ?? null;
  },

  async remove(q: Q, accountId: number, id: number): Promise<boolean> {
    const rows = await q
      .deleteFrom('message_templates')
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .returning('id')
      .execute();
    return rows.length > 0;
  },
};
