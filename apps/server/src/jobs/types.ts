/**
 * The payload of every job, by name. An area adds its jobs by augmenting this interface in the file
 * that defines them:
 *
 *   declare module '../jobs/types' {
 *     interface JobPayloads { 'numbers.renew': { numberId: number } }
 *   }
 *
 * so `jobs.enqueue(tx, 'numbers.renew', { numberId })` is checked against it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface JobPayloads {}

export type JobName = keyof JobPayloads & string;

export interface JobContext {
  id: number;
  name: string;
  /** 1 for the first try. */
  attempt: number;
  maxAttempts: number;
  /** The app clock (epoch ms). */
  now(): number;
}

export interface JobOptions<P> {
  /** Tries in all (a claim counts one, also when the process died during it). Default 5. */
  maxAttempts?: number;
  /** Wait before the next try after try `attempt` failed. Default 2 s, doubling, at most 1 h. */
  backoffMs?: (attempt: number) => number;
  /** A try running longer counts as failed (its result is ignored). Default 5 minutes. */
  timeoutMs?: number;
  /**
   * Runs once the job has failed for good (tries used up, or a `PermanentJobError`), before the row
   * is marked failed; it must be idempotent (a crash in between runs it again).
   */
  onFailed?: (payload: P, error: Error, ctx: JobContext) => Promise<void>;
  /**
   * Called with the payloads of a claimed batch before its jobs run, to read what they need in one
   * statement instead of one each (a backlog drains faster). Optional; a failure only loses the head start.
   */
  prepare?: (payloads: P[]) => Promise<void>;
}

export interface EnqueueOptions {
  /** When it becomes due (epoch ms, app clock). Default now. */
  runAt?: number;
  /**
   * At most one waiting or running job per key (build it with `idemKey`): enqueueing a key that
   * waits adds nothing. The key is free again once the job is done or failed.
   */
  dedupeKey?: string;
}

/** A job this worker holds: born claimed in a transaction, to run with `jobs.run` after the commit. */
export interface ClaimedJob {
  readonly id: number;
  readonly name: string;
  readonly payload: unknown;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly lastError: string | null;
}

/** Thrown by a handler: do not try again (the job fails at once; `onFailed` runs). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}
