import { sql } from 'kysely';
import type { Q } from '../db';

/** Counted events for limits that must hold across servers (code sends, new chat partners). */
export const rateEventsRepo = {
  async record(q: Q, key: string): Promise<void> {
    await q.insertInto('rate_events').values({ key }).execute();
  },

  /** Events of a key within the window, and the newest one's age in ms. */
  async stats(q: Q, key: string, windowMs: number): Promise<{ count: number; lastAgoMs: number | null }> {
    const row = await q
      .selectFrom('rate_events')
      .select([
        sql<number>`count(*)::int`.as('count'),
        sql<number | null>`(extract(epoch from (now() - max(at))) * 1000)::float8`.as('lastAgoMs'),
      ])
      .where('key', '=', key)
      .where('at', '>', sql<Date>`now() - ${windowMs} * interval '1 millisecond'`)
      .executeTakeFirst();
    return { count: row?.count ?? 0, lastAgoMs: row?.lastAgoMs ?? null };
  },

  /** Forgets the code-sending events of an address (the dev route that lifts its limits). */
  async clearCodeLimits(q: Q, address: string): Promise<number> {
    const res = await q
      .deleteFrom('rate_events')
      .where('key', 'like', `code:%:${address}`)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },

  /** Purge: events older than `before`. */
  async deleteOlder(q: Q, before: Date, limit: number): Promise<number> {
    const res = await q
      .deleteFrom('rate_events')
      .where('id', 'in', (eb) =>
        eb.selectFrom('rate_events').select('id').where('at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
