import { sql, type Expression } from 'kysely';
import { minorPerUnit } from '@numa/contract';
import type { Q } from '../db';

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

/**
 * A page read by its cursor, serialized by the database: `rows` is the page's select as for `jsonPage`,
 * limited to `pageSize + 1` rows so that the one past the page tells whether another page follows.
 * Gives the page's rows (at most `pageSize`) as JSON text and, when another page follows, the `_id` of
 * the page's last (oldest) row, which the next page starts after; else null.
 */
export async function cursorPage(
  q: Q,
  rows: Expression<unknown>,
  pageSize: number,
): Promise<{ list: string; nextPage: string | null }> {
  const {
    rows: [row],
  } = await sql<{ list: string; nextPage: string | null }>`
    SELECT coalesce(json_agg(x.r ORDER BY x.n) FILTER (WHERE x.n <= ${pageSize})::text, '[]') AS list,
           CASE WHEN count(*) > ${pageSize}
                THEN (array_agg((x.r)._id ORDER BY x.n DESC) FILTER (WHERE x.n <= ${pageSize}))[1] END AS "nextPage"
      FROM (SELECT r, row_number() OVER (ORDER BY r.date DESC, r._id::bigint DESC) AS n FROM ${rows} r) x
  `.execute(q);
  return { list: row!.list, nextPage: row!.nextPage };
}
