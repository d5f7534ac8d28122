import type { ColumnType, Generated } from 'kysely';

/** Migration 007: the one queue of work that runs later or on a schedule (src/jobs). */
export interface JobsTables {
  jobs: {
    id: Generated<number>;
    name: string;
    /** JSON; written as text */
    payload: ColumnType<unknown, string | undefined, string>;
    run_at: Date;
    /** attempts started (a claim counts one) */
    attempts: Generated<number>;
    max_attempts: number;
    /** the worker holding the job, until locked_until (renewed by its heartbeat) */
    locked_by: string | null;
    locked_until: Date | null;
    dedupe_key: string | null;
    last_error: string | null;
    failed_at: Date | null;
    created_at: Generated<Date>;
  };
  job_schedules: {
    name: string;
    every_ms: number;
    next_run_at: Date;
  };
}
