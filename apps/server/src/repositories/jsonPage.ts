import { sql, type Expression } from 'kysely';
import { minorPerUnit } from '@numa/contract';
import type { Q } from '../db';
import { prepared } from '../db/prepared';

/**
 * `rows` (a page's select, ordered and limited, its columns named as the contract's fields, among them
 * `date` in epoch ms and `_id`) as one JSON array text, newest first. A page of 200 crosses as one
 * value: no per-field decoding, mapping and stringify in the server's thread (on the embedded PGlite
 * decoding a page field by field cost more than its query; docs/decisions.md).
 */
export function jsonPage(rows: Expression<unknown>, { stripNulls = false } = {}) {
  const list = sql`json_agg(r ORDER BY r.date DESC, r._id::bigint DESC)`;
  // optional fields: a null leaves its key out (json_strip_nulls), as the contract's optional fields are
  const page = stripNulls ? sql`json_strip_nulls(${list})` : list;
  return sql<string>`(SELECT coalesce(${page}::text, '[]') FROM ${rows} r)`;
}

/** Minor units as the contract's money (`fromMinor`): the same float division JavaScript does. */
export const moneySql = (minorUnits: Expression<unknown>) =>
  sql<number>`(${minorUnits}::float8 / ${sql.lit(minorPerUnit)})`;

/** A timestamp as epoch milliseconds, whole (as `Date.getTime()` of the row's value). */
export const epochMsSql = (at: Expression<unknown>) =>
  sql<number>`floor(extract(epoch FROM ${at}) * 1000)::bigint`;

/** The values of a page read by its cursor: the account, its month [from, to), the cursor and the page's size. */
export type CursorPageValues = {
  accountId: number;
  from: Date;
  to: Date;
  /** the id of the previous page's last row; null: from the newest */
  before: number | null;
  pageSize: number;
};

/**
 * Pages read by their cursor, serialized by the database, each statement built and compiled once
 * (db/prepared.ts): one from the newest, one after a cursor. `rows(q, p, after)` is the page's select
 * as for `jsonPage`, limited to `p.limit` (the page plus one row, which tells whether another page
 * follows), and after `p.before` when `after`; it gets stand-ins for the values and must not branch on
 * them. A page gives its rows (at most `pageSize`) as JSON text and, when another page follows, the
 * `_id` of its last (oldest) row, which the next page starts after; else null.
 */
export function cursorPages<P extends CursorPageValues>(
  rows: (q: Q, p: P & { limit: number }, after: boolean) => Expression<unknown>,
) {
  const shape = (after: boolean) =>
    prepared((q, p: Record<string, unknown>) => {
      const v = p as P & { limit: number };
      return sql<{ list: string; nextPage: string | null }>`
        SELECT coalesce(json_agg(x.r ORDER BY x.n) FILTER (WHERE x.n <= ${v.pageSize})::text, '[]') AS list,
               CASE WHEN count(*) > ${v.pageSize}
                    THEN (array_agg((x.r)._id ORDER BY x.n DESC) FILTER (WHERE x.n <= ${v.pageSize}))[1]
               END AS "nextPage"
          FROM (SELECT r, row_number() OVER (ORDER BY r.date DESC, r._id::bigint DESC) AS n
                  FROM ${rows(q, v, after)} r) x`;
    });
  const newest = shape(false);
  const following = shape(true);
  return async (q: Q, values: P): Promise<{ list: string; nextPage: string | null }> => {
    const [row] = await (values.before === null ? newest : following)(q, {
      ...values,
      limit: values.pageSize + 1,
    });
    return { list: row!.list, nextPage: row!.nextPage };
  };
}
