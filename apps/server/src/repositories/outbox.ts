import type { Q } from '../db';
import type { CodeChannel } from './signin';

export interface OutboxMessage {
  to: string;
  text: string;
  code: string | null;
  date: number;
}

/** Dev mode: every code that would be mailed or texted (GET /dev/outbox). */
export const outboxRepo = {
  async add(
    q: Q,
    m: { channel: CodeChannel; to: string; subject?: string; text: string; code?: string },
  ): Promise<void> {
    await q
      .insertInto('outbox')
      .values({
        channel: m.channel,
        to_address: m.to,
        subject: m.subject ?? null,
        text: m.text,
        code: m.code ?? null,
      })
      .execute();
  },

  async list(q: Q, to: string, limit = 50): Promise<OutboxMessage[]> {
    const rows = await q
      .selectFrom('outbox')
      .select(['to_address', 'text', 'code', 'created_at'])
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      to: r.to_address,
      text: r.text,
      code: r.code,
      date: new Date(r.created_at).getTime(),
    }));
  },

  /** Purge: messages written before `before`. */
  async deleteOlder(q: Q, before: Date, limit: number): Promise<number> {
    const res = await q
      .deleteFrom('outbox')
      .where('id', 'in', (eb) =>
        eb.selectFrom('outbox').select('id').where('created_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
