import { sql } from 'kysely';
import type { Q } from '../db';

/** Captcha answers, kept in the database so any server can check them. */
export const captchasRepo = {
  async put(q: Q, id: string, answer: string, ttlMs: number): Promise<void> {
    const expires = sql<Date>`now() + ${ttlMs} * interval '1 millisecond'`;
    await q
      .insertInto('captchas')
      .values({ id, answer, expires_at: expires })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          answer: eb.ref('excluded.answer'),
          created_at: sql`now()`,
          expires_at: eb.ref('excluded.expires_at'),
        })),
      )
      .execute();
  },

  async get(q: Q, id: string): Promise<{ answer: string; expired: boolean } | null> {
    const row = await q
      .selectFrom('captchas')
      .select(['answer', sql<boolean>`expires_at < now()`.as('expired')])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  },

  /** Takes a captcha for checking: it can be answered once only. */
  async take(q: Q, id: string): Promise<{ answer: string; expired: boolean } | null> {
    const row = await q
      .deleteFrom('captchas')
      .where('id', '=', id)
      .returning(['answer', sql<boolean>`expires_at < now()`.as('expired')])
      .executeTakeFirst();
    return row ?? null;
  },

  /** Purge: captchas that expired before `before`. */
  async deleteExpired(q: Q, before: Date, limit: number): Promise<number> {
    const res = await q
      .deleteFrom('captchas')
      .where('id', 'in', (eb) =>
        eb.selectFrom('captchas').select('id').where('expires_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
