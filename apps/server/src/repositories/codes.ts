import type { BrandId } from '@numa/contract';
import type { Queryable } from '../db';

export type CodePurpose = 'login' | 'verify';
export type CodeChannel = 'email' | 'sms';

export interface CodeRow {
  id: number;
  codeHash: string;
  wrongTries: number;
  createdAt: Date;
  expiresAt: Date;
  consumedAt: Date | null;
  accountId: number | null;
}

const cols = `id, code_hash AS "codeHash", wrong_tries AS "wrongTries", created_at AS "createdAt",
  expires_at AS "expiresAt", consumed_at AS "consumedAt", account_id AS "accountId"`;

export const codesRepo = {
  async latest(q: Queryable, brand: BrandId, purpose: CodePurpose, address: string, forUpdate = false): Promise<CodeRow | null> {
    const [row] = await q.query<CodeRow>(
      `SELECT ${cols} FROM verification_codes WHERE brand = $1 AND purpose = $2 AND address = $3
        ORDER BY created_at DESC, id DESC LIMIT 1 ${forUpdate ? 'FOR UPDATE' : ''}`,
      [brand, purpose, address],
    );
    return row ?? null;
  },

  async insert(
    q: Queryable,
    c: { brand: BrandId; purpose: CodePurpose; address: string; channel: CodeChannel; codeHash: string; expiresAt: Date; accountId?: number | null; ip?: string },
  ): Promise<number> {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO verification_codes (brand, purpose, address, channel, code_hash, expires_at, account_id, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [c.brand, c.purpose, c.address, c.channel, c.codeHash, c.expiresAt, c.accountId ?? null, c.ip ?? null],
    );
    return row!.id;
  },

  async addWrongTry(q: Queryable, id: number): Promise<number> {
    const [row] = await q.query<{ wrongTries: number }>(
      `UPDATE verification_codes SET wrong_tries = wrong_tries + 1 WHERE id = $1 RETURNING wrong_tries AS "wrongTries"`,
      [id],
    );
    return row?.wrongTries ?? 0;
  },

  /** Marks a code used; false when another request used it first. */
  async consume(q: Queryable, id: number): Promise<boolean> {
    const rows = await q.query(`UPDATE verification_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id`, [id]);
    return rows.length === 1;
  },
};

export const captchasRepo = {
  async put(q: Queryable, id: string, answer: string, ttlMs: number): Promise<void> {
    await q.query(
      `INSERT INTO captchas (id, answer, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET answer = EXCLUDED.answer, created_at = now(), expires_at = EXCLUDED.expires_at`,
      [id, answer, ttlMs],
    );
  },

  async get(q: Queryable, id: string): Promise<{ answer: string; expired: boolean } | null> {
    const [row] = await q.query<{ answer: string; expired: boolean }>(
      `SELECT answer, expires_at < now() AS expired FROM captchas WHERE id = $1`,
      [id],
    );
    return row ?? null;
  },

  /** Takes a captcha for checking: it can be answered once only. */
  async take(q: Queryable, id: string): Promise<{ answer: string; expired: boolean } | null> {
    const [row] = await q.query<{ answer: string; expired: boolean }>(
      `DELETE FROM captchas WHERE id = $1 RETURNING answer, expires_at < now() AS expired`,
      [id],
    );
    return row ?? null;
  },

  async purgeExpired(q: Queryable): Promise<void> {
    await q.query(`DELETE FROM captchas WHERE expires_at < now() - interval '1 hour'`);
  },
};

export const rateEventsRepo = {
  async record(q: Queryable, key: string): Promise<void> {
    await q.query('INSERT INTO rate_events (key) VALUES ($1)', [key]);
  },

  /** Events of a key within the window, and the newest one's age in ms. */
  async stats(q: Queryable, key: string, windowMs: number): Promise<{ count: number; lastAgoMs: number | null }> {
    const [row] = await q.query<{ count: number; lastAgoMs: number | null }>(
      `SELECT count(*)::int AS count,
              (extract(epoch from (now() - max(at))) * 1000)::float8 AS "lastAgoMs"
         FROM rate_events WHERE key = $1 AND at > now() - $2 * interval '1 millisecond'`,
      [key, windowMs],
    );
    return { count: row?.count ?? 0, lastAgoMs: row?.lastAgoMs ?? null };
  },

  async purgeOlderThan(q: Queryable, ms: number): Promise<void> {
    await q.query(`DELETE FROM rate_events WHERE at < now() - $1 * interval '1 millisecond'`, [ms]);
  },
};

export interface OutboxMessage {
  to: string;
  text: string;
  code: string | null;
  date: number;
}

export const outboxRepo = {
  async add(q: Queryable, m: { channel: CodeChannel; to: string; subject?: string; text: string; code?: string }): Promise<void> {
    await q.query(`INSERT INTO outbox (channel, to_address, subject, text, code) VALUES ($1, $2, $3, $4, $5)`, [
      m.channel,
      m.to,
      m.subject ?? null,
      m.text,
      m.code ?? null,
    ]);
  },

  async list(q: Queryable, to: string, limit = 50): Promise<OutboxMessage[]> {
    const rows = await q.query<{ to: string; text: string; code: string | null; createdAt: Date }>(
      `SELECT to_address AS "to", text, code, created_at AS "createdAt" FROM outbox
        WHERE to_address = $1 ORDER BY id DESC LIMIT $2`,
      [to, limit],
    );
    return rows.map((r) => ({ to: r.to, text: r.text, code: r.code, date: new Date(r.createdAt).getTime() }));
  },
};
