import type { Q } from '../db';

/** One job name's share of the due jobs (`metricsRepo.jobQueue`). */
export interface JobQueueRow {
  name: string;
  /** Due and free: waiting for a worker (no live lease). */
  waiting: number;
  /** Due and held by a worker whose lease has not ended (running on some server). */
  running: number;
  /** The run_at of the oldest waiting job, or null when none waits. */
  oldestWaiting: Date | null;
}

/** What the metrics read from the database when scraped (src/metrics; nothing else calls these). */
export const metricsRepo = {
  /**
   * The due jobs by name, in one statement bounded by `cap`: the `cap` oldest due rows that have not
   * failed (the index `jobs_due` in run_at order, so the scan stops there), grouped by name.
   * `truncated`: the cap was reached, so the counts are lower bounds (the oldest ages still hold for
   * every name found, since the oldest rows are the ones read).
   */
  async jobQueue(q: Q, now: Date, cap: number): Promise<{ rows: JobQueueRow[]; truncated: boolean }> {
    const rows = await q
      .selectFrom((eb) =>
        eb
          .selectFrom('jobs')
          .select(['name', 'run_at', 'locked_until'])
          .where('failed_at', 'is', null)
          .where('run_at', '<=', now)
          .orderBy('run_at')
          .orderBy('id')
          .limit(cap)
          .as('d'),
      )
      .select((eb) => {
        const free = eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', now)]);
        return [
          'd.name',
          eb.fn.countAll<number>().as('due'),
          eb.fn.countAll<number>().filterWhere(free).as('waiting'),
          eb.fn.min<Date | null>('d.run_at').filterWhere(free).as('oldest'),
        ];
      })
      .groupBy('d.name')
      .execute();
    const total = rows.reduce((n, r) => n + Number(r.due), 0);
    return {
      rows: rows.map((r) => ({
        name: r.name,
        waiting: Number(r.waiting),
        running: Number(r.due) - Number(r.waiting),
        oldestWaiting: r.oldest === null ? null : new Date(r.oldest),
      })),
      truncated: total >= cap,
    };
  },
};
