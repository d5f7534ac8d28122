import { sql } from 'kysely';
import type { Q, Tx } from '../db';

/** A job a worker holds (claimed, or born claimed). */
export interface ClaimedJobRow {
  id: number;
  name: string;
  payload: unknown;
  /** attempts started, this one included */
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
}

const claimedCols = [
  'id',
  'name',
  'payload',
  'attempts',
  'max_attempts as maxAttempts',
  'last_error as lastError',
] as const;

export interface NewJob {
  name: string;
  payload: unknown;
  runAt: Date;
  maxAttempts: number;
  dedupeKey?: string | null;
}

/** The jobs table and the schedules (src/jobs runs them; nothing else should call these). */
export const jobsRepo = {
  /** A waiting job; with a dedupe key already waiting or running, nothing is added (`created` false). */
  async insert(q: Q, j: NewJob): Promise<{ id: number; created: boolean }> {
    const row = await q
      .insertInto('jobs')
      .values({
        name: j.name,
        payload: JSON.stringify(j.payload ?? {}),
        run_at: j.runAt,
        max_attempts: j.maxAttempts,
        dedupe_key: j.dedupeKey ?? null,
      })
      .onConflict((oc) => oc.column('dedupe_key').where('dedupe_key', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return { id: row.id, created: true };
    const existing = await q
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', j.dedupeKey!)
      .executeTakeFirst();
    if (!existing) throw new Error(`job ${j.name}: dedupe key ${j.dedupeKey} neither inserted nor found`);
    return { id: existing.id, created: false };
  },

  /**
   * Many waiting jobs of one name in ONE statement (a sweep's page): payloads and dedupe keys go as
   * two arrays (one statement text whatever their number, so it stays one prepared statement); a key
   * already waiting or running adds nothing. Returns how many rows were added.
   */
  async insertMany(
    q: Q,
    j: { name: string; runAt: Date; maxAttempts: number },
    items: readonly { payload: unknown; dedupeKey: string }[],
  ): Promise<number> {
    if (!items.length) return 0;
    const payloads = items.map((i) => JSON.stringify(i.payload ?? {}));
    const keys = items.map((i) => i.dedupeKey);
    const { rows } = await sql<{ id: number }>`
      INSERT INTO jobs (name, payload, run_at, max_attempts, dedupe_key)
      SELECT ${j.name}::text, t.payload, ${j.runAt}::timestamptz, ${j.maxAttempts}::int, t.key
        FROM unnest(${payloads}::jsonb[], ${keys}::text[]) AS t(payload, key)
      ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
      RETURNING id`.execute(q);
    return rows.length;
  },

  /** A job born claimed by `worker` (its first attempt), inside the caller's transaction. */
  async insertClaimed(tx: Tx, j: NewJob, worker: string, until: Date): Promise<ClaimedJobRow> {
    return tx
      .insertInto('jobs')
      .values({
        name: j.name,
        payload: JSON.stringify(j.payload ?? {}),
        run_at: j.runAt,
        max_attempts: j.maxAttempts,
        dedupe_key: j.dedupeKey ?? null,
        attempts: 1,
        locked_by: worker,
        locked_until: until,
      })
      .returning(claimedCols)
      .executeTakeFirstOrThrow();
  },

  /**
   * Claims up to `limit` due jobs of these names for `worker` until `until`, in one statement: FOR
   * UPDATE SKIP LOCKED, so two workers never take the same row. A job whose lease ran out (its
   * worker died) is due again. Counts an attempt for each.
   */
  async claim(
    q: Q,
    p: {
      worker: string;
      names: readonly string[];
      now: Date;
      until: Date;
      limit: number;
      dedupeKey?: string;
    },
  ): Promise<ClaimedJobRow[]> {
    if (!p.names.length || p.limit <= 0) return [];
    return q
      .updateTable('jobs')
      .set((eb) => ({ locked_by: p.worker, locked_until: p.until, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) => {
        let due = eb
          .selectFrom('jobs')
          .select('id')
          .where('failed_at', 'is', null)
          .where('run_at', '<=', p.now)
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', p.now)]))
          .where('name', 'in', [...p.names]);
        if (p.dedupeKey !== undefined) due = due.where('dedupe_key', '=', p.dedupeKey);
        return due.orderBy('run_at').orderBy('id').limit(p.limit).forUpdate().skipLocked();
      })
      .returning(claimedCols)
      .execute();
  },

  /** The heartbeat: the worker still runs these jobs. */
  async renew(q: Q, worker: string, ids: readonly number[], until: Date): Promise<void> {
    if (!ids.length) return;
    await q
      .updateTable('jobs')
      .set({ locked_until: until })
      .where('locked_by', '=', worker)
      .where('id', 'in', [...ids])
      .execute();
  },

  /** A job done: its row goes. */
  async done(q: Q, id: number, worker: string): Promise<void> {
    await q.deleteFrom('jobs').where('id', '=', id).where('locked_by', '=', worker).execute();
  },

  /** A failed attempt with attempts left: due again at `runAt`. */
  async retry(q: Q, id: number, worker: string, runAt: Date, error: string): Promise<void> {
    await q
      .updateTable('jobs')
      .set({ run_at: runAt, locked_by: null, locked_until: null, last_error: error.slice(0, 1000) })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  },

  /** A job that failed for good: kept for operators (no longer due, its dedupe key freed). */
  async fail(q: Q, id: number, worker: string, at: Date, error: string): Promise<void> {
    await q
      .updateTable('jobs')
      .set({
        failed_at: at,
        locked_by: null,
        locked_until: null,
        dedupe_key: null,
        last_error: error.slice(0, 1000),
      })
      .where('id', '=', id)
      .where('locked_by', '=', worker)
      .execute();
  },

  /** Lets go of a worker's jobs (a clean stop), or of every held job (`worker` null: an embedded database at start). */
  async release(q: Q, worker: string | null): Promise<number> {
    let query = q.updateTable('jobs').set({ locked_by: null, locked_until: null });
    query =
      worker === null ? query.where('locked_by', 'is not', null) : query.where('locked_by', '=', worker);
    const res = await query.executeTakeFirst();
    return Number(res.numUpdatedRows);
  },

  /** Workers holding jobs whose lease has not ended, with the jobs they hold. */
  async holders(q: Q, now: Date): Promise<{ worker: string; jobs: number }[]> {
    const rows = await q
      .selectFrom('jobs')
      .select((eb) => ['locked_by', eb.fn.countAll<number>().as('n')])
      .where('locked_by', 'is not', null)
      .where('locked_until', '>=', now)
      .groupBy('locked_by')
      .execute();
    return rows.map((r) => ({ worker: r.locked_by!, jobs: Number(r.n) }));
  },

  /** Purge: jobs that failed before `before`. */
  async deleteFailed(q: Q, before: Date, limit: number): Promise<number> {
    const res = await q
      .deleteFrom('jobs')
      .where('id', 'in', (eb) =>
        eb.selectFrom('jobs').select('id').where('failed_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },

  /** Waiting, running and failed jobs by name (operators, tests). */
  async counts(q: Q): Promise<{ name: string; waiting: number; failed: number }[]> {
    const rows = await q
      .selectFrom('jobs')
      .select((eb) => [
        'name',
        eb.fn.countAll<number>().filterWhere('failed_at', 'is', null).as('waiting'),
        eb.fn.countAll<number>().filterWhere('failed_at', 'is not', null).as('failed'),
      ])
      .groupBy('name')
      .orderBy('name')
      .execute();
    return rows.map((r) => ({ name: r.name, waiting: Number(r.waiting), failed: Number(r.failed) }));
  },

  /** Registers a schedule (first run at `next`); an existing one keeps its next run unless its period changed. */
  async upsertSchedule(q: Q, name: string, everyMs: number, next: Date): Promise<Date> {
    const row = await q
      .insertInto('job_schedules')
      .values({ name, every_ms: everyMs, next_run_at: next })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({
          every_ms: eb.ref('excluded.every_ms'),
          next_run_at: eb
            .case()
            .when('job_schedules.every_ms', '=', eb.ref('excluded.every_ms'))
            .then(eb.ref('job_schedules.next_run_at'))
            .else(eb.ref('excluded.next_run_at'))
            .end(),
        })),
      )
      .returning('next_run_at')
      .executeTakeFirstOrThrow();
    return row.next_run_at;
  },

  /**
   * Moves a due schedule on to `next`, only if it is still due at `now` (a conditional update: of
   * several servers, one wins the period). Returns the period's start when this call won it.
   */
  async advanceSchedule(tx: Tx, name: string, now: Date, next: Date): Promise<Date | null> {
    const before = await tx
      .selectFrom('job_schedules')
      .select('next_run_at')
      .where('name', '=', name)
      .where('next_run_at', '<=', now)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!before) return null;
    await tx.updateTable('job_schedules').set({ next_run_at: next }).where('name', '=', name).execute();
    return before.next_run_at;
  },

  async scheduleNext(q: Q, name: string): Promise<Date | null> {
    return (
      (await q.selectFrom('job_schedules').select('next_run_at').where('name', '=', name).executeTakeFirst())
        ?.next_run_at ?? null
    );
  },
};
