import { sql, type Expression } from 'kysely';
import type { Q } from '../db';
import { prepared } from '../db/prepared';
import { jsonPage } from './jsonPage';

/** A page-numbered history whose month total is kept (migration 170). */
export type HistoryKind = 'payment' | 'sms' | 'call' | 'number';

/** The values of a page-numbered history's page: the account, its month [from, to) and the page. */
export type MonthPageValues = {
  accountId: number;
  from: Date;
  to: Date;
  limit: number;
  offset: number;
};

/**
 * A page of a page-numbered history with the month's total, in one statement built and compiled once
 * (db/prepared.ts). The total is the month's kept row in `history_counts` (0 when none), kept by the
 * tables' triggers in the transaction that writes the rows (migrations 170 and 171): one row read,
 * whatever the month holds. The page (`rows`: the select, ordered and limited, in the contract's
 * field names) is serialized by the database into one JSON array text (`jsonPage`), which goes into
 * the answer as it is. `rows` gets stand-ins for the values (`fromMs` and `toMs` are the month's
 * bounds in epoch ms, for the tables that keep dates so) and must not branch on them.
 */
export function monthPage(
  kind: HistoryKind,
  rows: (q: Q, p: MonthPageValues & { fromMs: number; toMs: number }) => Expression<unknown>,
  options: { stripNulls?: boolean } = {},
) {
  const statement = prepared(
    (q, p: MonthPageValues & { fromMs: number; toMs: number; month: string }) =>
      sql<{ total: number | string; list: string }>`
        SELECT coalesce((SELECT n FROM history_counts
                          WHERE account_id = ${p.accountId} AND kind = ${kind} AND month = ${p.month}::date), 0) AS total,
               ${jsonPage(rows(q, p), options)} AS list`,
  );
  return async (q: Q, v: MonthPageValues): Promise<{ total: number; list: string }> => {
    const [row] = await statement(q, {
      ...v,
      fromMs: v.from.getTime(),
      toMs: v.to.getTime(),
      month: v.from.toISOString().slice(0, 10),
    });
    return { total: Number(row!.total), list: row!.list };
  };
}
