import type { Direction, MessageType } from '@numa/contract';
import { sql } from 'kysely';
import type { Database } from '../db';

/** A message found by search: the keys the client opens it by, and its whole text (the snippet is cut in the service). */
export interface SearchRow {
  id: number;
  smsId: string;
  date: number;
  ownFullNumber: string;
  otherFullNumber: string;
  direction: Direction;
  type: MessageType;
  text: string;
}

/** A LIKE pattern matching `term` anywhere (`\`, `%` and `_` in the term match themselves). */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Message search (issue 22 §1): the account's messages, not deleted, whose text holds every term in
 * any case (ILIKE), newest first (date, then id), after the keyset `before` when given. The terms are
 * answered by the trigram index of migration 130 (messages_text_trgm, partial on `deleted = false`);
 * a term too short for trigrams (one or two characters) leaves the planner to walk the account's
 * messages newest first (messages_account_date) until a page is found.
 */
export const messageSearchRepo = {
  async search(
    db: Database,
    accountId: number,
    terms: readonly string[],
    before: { date: number; id: number } | null,
    limit: number,
  ): Promise<SearchRow[]> {
    // planned for these very words: a generic plan (what a prepared statement settles on after five
    // runs) cannot tell a rare word from a common one and walked all 100,000 messages of the bench
    // for a word in none of them
    return db.tx(async (q) => {
      await sql`SET LOCAL plan_cache_mode = force_custom_plan`.execute(q);
      let query = q
        .selectFrom('messages as m')
        .select([
          'm.id',
          'm.sms_id as smsId',
          'm.date',
          'm.own_full_number as ownFullNumber',
          'm.other_full_number as otherFullNumber',
          'm.direction',
          'm.type',
          'm.text',
        ])
        .where('m.account_id', '=', accountId)
        .where('m.deleted', '=', false);
      for (const term of terms) query = query.where('m.text', 'ilike', containsPattern(term));
      if (before)
        query = query.where((eb) => eb(eb.refTuple('m.date', 'm.id'), '<', eb.tuple(before.date, before.id)));
      return (await query
        .orderBy('m.date', 'desc')
        .orderBy('m.id', 'desc')
        .limit(limit)
        .execute()) as SearchRow[];
    });
  },
};
