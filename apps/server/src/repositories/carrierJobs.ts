import type { Queryable } from '../db';

export interface CarrierJob {
  id: number;
  messageId: number;
  attempts: number;
}

export const carrierJobsRepo = {
  async enqueue(q: Queryable, messageId: number): Promise<number> {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO carrier_jobs (message_id) VALUES ($1) RETURNING id`,
      [messageId],
    );
    return row!.id;
  },

  /**
   * Claims due jobs for `leaseMs` (one statement: FOR UPDATE SKIP LOCKED, so two workers never take the
   * same row). A job whose lease ran out (its process died) is due again.
   */
  async claim(
    q: Queryable,
    p: { leaseMs: number; limit: number; jobId?: number; messageId?: number },
  ): Promise<CarrierJob[]> {
    return q.query<CarrierJob>(
      `UPDATE carrier_jobs SET locked_until = now() + $1 * interval '1 millisecond', attempts = attempts + 1
        WHERE id IN (
          SELECT id FROM carrier_jobs
           WHERE done_at IS NULL AND run_after <= now() AND (locked_until IS NULL OR locked_until < now())
             AND ($3::bigint IS NULL OR id = $3) AND ($4::bigint IS NULL OR message_id = $4)
           ORDER BY id LIMIT $2
           FOR UPDATE SKIP LOCKED)
        RETURNING id, message_id AS "messageId", attempts`,
      [p.leaseMs, p.limit, p.jobId ?? null, p.messageId ?? null],
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
