import type { Queryable } from '../db';

export interface CarrierJob {
  id: number;
  messageId: number;
  attempts: number;
}

export const carrierJobsRepo = {
  /** A job for a message, already claimed by the caller for `leaseMs` (its first attempt). */
  async enqueue(q: Queryable, messageId: number, leaseMs: number): Promise<CarrierJob> {
    const [row] = await q.query<CarrierJob>(
      `INSERT INTO carrier_jobs (message_id, attempts, locked_until)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       RETURNING id, message_id AS "messageId", attempts`,
      [messageId, leaseMs],
    );
    return row!;
  },

  /**
   * Claims due jobs for `leaseMs` (one statement: FOR UPDATE SKIP LOCKED, so two workers never take the
   * same row). A job whose lease ran out (its process died) is due again.
   */
  async claim(
    q: Queryable,
    p: { leaseMs: number; limit: number; messageId?: number },
  ): Promise<CarrierJob[]> {
    return q.query<CarrierJob>(
      `UPDATE carrier_jobs SET locked_until = now() + $1 * interval '1 millisecond', attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM carrier_jobs
           WHERE done_at IS NULL AND run_after <= now() AND (locked_until IS NULL OR locked_until < now())
             AND ($3::bigint IS NULL OR message_id = $3)
           ORDER BY id LIMIT $2
           FOR UPDATE SKIP LOCKED)
        RETURNING id, message_id AS "messageId", attempts`,
      [p.leaseMs, p.limit, p.messageId ?? null],
    );
  },

  async done(q: Queryable, id: number): Promise<void> {
    await q.query(`UPDATE carrier_jobs SET done_at = now(), locked_until = NULL WHERE id = $1`, [id]);
  },

  async retryLater(q: Queryable, id: number, delayMs: number, error: string): Promise<void> {
    await q.query(
      `UPDATE carrier_jobs SET run_after = now() + $2 * interval '1 millisecond', locked_until = NULL, last_error = $3 WHERE id = $1`,
      [id, delayMs, error.slice(0, 500)],
    );
  },

  /** Media types of stored files, by id (what the carrier needs to attach them). */
  async mediaTypes(q: Queryable, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await q.query<{ id: string; mime: string }>(
      `SELECT id, mime FROM media WHERE id = ANY($1::text[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.mime]));
  },
};
