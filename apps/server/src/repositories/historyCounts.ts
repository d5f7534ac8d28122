import { sql } from 'kysely';
import type { Q } from '../db';

/** A page-numbered history whose month total is kept (migration 170). */
export type HistoryKind = 'payment' | 'sms' | 'call' | 'number';

/**
 * The month totals of the page-numbered histories, kept by the tables' statement triggers in the
 * transaction that writes the rows (migration 170): one row read, whatever the month holds.
 */
export const historyCountsRepo = {
  /** The account's total of a kind in the UTC month that starts at `month` (0 when none). */
  async total(q: Q, accountId: number, kind: HistoryKind, month: Date): Promise<number> {
    const row = await q
      .selectFrom('history_counts')
      .select('n')
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .where('month', '=', sql<Date>`${month.toISOString().slice(0, 10)}::date`)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};
