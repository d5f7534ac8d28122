import { sql, type Expression } from 'kysely';
import type { Q } from '../db';
import { jsonPage } from './jsonPage';

/** A page-numbered history whose month total is kept (migration 170). */
export type HistoryKind = 'payment' | 'sms' | 'call' | 'number';

/**
 * The month totals of the page-numbered histories, kept by the tables' statement triggers in the
 * transaction that writes the rows (migration 170): one row read, whatever the month holds.
 */
export const historyCountsRepo = {
  /**
   * A page of a month's history with the month's total, in one statement: the total is one kept row
   * (0 when none), and the page (`rows`, already limited and ordered) is serialized by the database
   * into one JSON array text (`jsonPage`), which goes into the answer as it is.
   */
  async page(
    q: Q,
    accountId: number,
    kind: HistoryKind,
    month: Date,
    rows: Expression<unknown>,
    options: { stripNulls?: boolean } = {},
  ): Promise<{ total: number; list: string }> {
    const {
      rows: [row],
    } = await sql<{ total: number | string; list: string }>`
      SELECT coalesce((SELECT n FROM history_counts
                        WHERE account_id = ${accountId} AND kind = ${kind}
                          AND month = ${month.toISOString().slice(0, 10)}::date), 0) AS total,
             ${jsonPage(rows, options)} AS list
    `.execute(q);
    return { total: Number(row!.total), list: row!.list };
  },
};
