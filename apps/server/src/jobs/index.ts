import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Q, Tx } from '../db';
import type { Clock } from '../lib/clock';
import type { Metrics } from '../metrics';
import { idemKey } from '../lib/idem';
import { jobsRepo, type ClaimedJobRow } from '../repositories/jobs';
import {
  PermanentJobError,
  type ClaimedJob,
  type EnqueueOptions,
  type JobContext,
  type JobName,
  type JobOptions,
  type JobPayloads,
} from './types';

export * from './types';

export interface JobsOptions {
  /** A claim holds a job this long unless the worker's heartbeat renews it (a dead worker's jobs are free after it). */
  leaseMs: number;
  /** How often a worker renews the leases of the jobs it runs. */
  heartbeatMs: number;
  /** How often an idle worker looks for due jobs (it looks again at once after a full batch). */
  pollMs: number;
  /** Jobs run at once by one worker; also the largest batch claimed. */
  concurrency: number;
  /** How long `stop` waits for running jobs before letting go of them. */
  stopGraceMs: number;
  /**
   * Let go of every held job at start: right for an embedded database, which one process owns, so
   * any lease in it at start is a dead process's (the restarted server drains at once).
   */
  releaseAllOnStart: boolean;
}

export const defaultJobsOptions: JobsOptions = {
  leaseMs: 5_000,
  heartbeatMs: 1_500,
  pollMs: 1_000,
  concurrency: 32,
  stopGraceMs: 3_000,
  releaseAllOnStart: false,
};

interface Definition {
  handler: (payload: unknown, ctx: JobContext) => Promise<void>;
  maxAttempts: number;
  backoffMs: (attempt: number) => number;
  timeoutMs: number;
  onFailed?: (payload: unknown, error: Error, ctx: JobContext) => Promise<void>;
  prepare?: (payloads: unknown[]) => Promise<void>;
}

interface Schedule {
  name: JobName;
  everyMs: number;
  offsetMs: number;
  payload: unknown;
  /** what this worker last saw of next_run_at (epoch ms) */
  next: number;
}

const defaultBackoff = (attempt: number) => Math.min(3_600_000, 2_000 * 2 ** (attempt - 1));

/** Workers of this process (several apps may run in one process: tests, benchmarks). */
const liveWorkers = new Set<string>();

/**
 * Whether a worker id (`host:pid:random`) names a process of this machine that is gone: another pid
 * that no longer exists, or this very pid under another id that is not one of this process's workers
 * (a restart that got the same pid, as in a container). Unknown (another host): false.
 */
export function deadLocalWorker(id: string): boolean {
  const [host, pidText] = id.split(':');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return !liveWorkers.has(id);
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

class TimeoutError extends Error {}

/**
 * The one queue for work that runs later or on a schedule (docs/architecture.md, "Jobs"). Each job
 * is a row of `jobs`; workers (one per server) claim due rows in batches with FOR UPDATE SKIP LOCKED
 * and a short lease their heartbeat renews while the job runs, so a job runs once across any number
 * of servers and a dead process's jobs are free again within `leaseMs`. Time comes from the app
 * clock. Failed tries are retried with backoff; the last failure calls the definition's `onFailed`.
 */
export function createJobs(deps: {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  metrics?: Pick<Metrics, 'jobRun'>;
  options?: Partial<JobsOptions>;
}) {
  const { db, clock, log } = deps;
  const opts: JobsOptions = { ...defaultJobsOptions, ...deps.options };
  const worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  liveWorkers.add(worker);
  const defs = new Map<string, Definition>();
  const schedules = new Map<string, Schedule>();
  const running = new Map<number, Promise<void>>();
  let started = false;
  let stopping = false;
  let pollTimer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let polling: Promise<void> | null = null;
  let again = false;
  let draining = 0;

  const now = () => new Date(clock.now());
  const leaseEnd = () => new Date(clock.now() + opts.leaseMs);

  function define<N extends JobName>(
    name: N,
    handler: (payload: JobPayloads[N], ctx: JobContext) => Promise<void>,
    o: JobOptions<JobPayloads[N]> = {},
  ) {
    if (defs.has(name)) throw new Error(`job ${name} is defined twice`);
    if (started) throw new Error(`job ${name} defined after the workers started`);
    defs.set(name, {
      handler: handler as Definition['handler'],
      maxAttempts: o.maxAttempts ?? 5,
      backoffMs: o.backoffMs ?? defaultBackoff,
      timeoutMs: o.timeoutMs ?? 300_000,
      ...(o.onFailed ? { onFailed: o.onFailed as Definition['onFailed'] } : {}),
      ...(o.prepare ? { prepare: o.prepare as Definition['prepare'] } : {}),
    });
  }

  function definition(name: string): Definition {
    const d = defs.get(name);
    if (!d) throw new Error(`job ${name} is not defined`);
    return d;
  }

  async function enqueue<N extends JobName>(
    q: Q | Tx,
    name: N,
    payload: JobPayloads[N],
    o: EnqueueOptions = {},
  ) {
    const d = definition(name);
    const at = o.runAt ?? clock.now();
    const res = await jobsRepo.insert(q, {
      name,
      payload,
      runAt: new Date(at),
      maxAttempts: d.maxAttempts,
      dedupeKey: o.dedupeKey ?? null,
    });
    // due now and not inside a transaction: look at once (a job enqueued in a transaction is seen at the next poll)
    if (at <= clock.now() && !(q as { isTransaction?: boolean }).isTransaction) wake();
    return res;
  }

  /**
   * Many jobs of one name in one statement (a sweep enqueues a page of due rows at once). Each has a
   * dedupe key; a key already waiting or running adds nothing. Returns how many were added (not how
   * many were asked for: a caller that counts progress must count these).
   */
  async function enqueueMany<N extends JobName>(
    q: Q | Tx,
    name: N,
    items: readonly { payload: JobPayloads[N]; dedupeKey: string }[],
    o: Pick<EnqueueOptions, 'runAt'> = {},
  ): Promise<number> {
    const d = definition(name);
    const at = o.runAt ?? clock.now();
    const added = await jobsRepo.insertMany(
      q,
      { name, runAt: new Date(at), maxAttempts: d.maxAttempts },
      items,
    );
    if (added && at <= clock.now() && !(q as { isTransaction?: boolean }).isTransaction) wake();
    return added;
  }

  async function enqueueClaimed<N extends JobName>(
    tx: Tx,
    name: N,
    payload: JobPayloads[N],
    o: Omit<EnqueueOptions, 'runAt'> = {},
  ): Promise<ClaimedJob> {
    const d = definition(name);
    return jobsRepo.insertClaimed(
      tx,
      { name, payload, runAt: now(), maxAttempts: d.maxAttempts, dedupeKey: o.dedupeKey ?? null },
      worker,
      leaseEnd(),
    );
  }

  /**
   * What a job born claimed by this server is written with, for a statement that writes its row itself
   * in the same round trip as what it is about (the send path: messagesRepo.sendDurable); the row
   * it returns is then handed to `run` after the commit, exactly like one from `enqueueClaimed`.
   */
  function bornClaimed(name: JobName): {
    name: string;
    runAt: Date;
    maxAttempts: number;
    worker: string;
    until: Date;
  } {
    const d = definition(name);
    return { name, runAt: now(), maxAttempts: d.maxAttempts, worker, until: leaseEnd() };
  }

  function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`job took longer than ${ms} ms`)), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  async function fail(job: ClaimedJobRow, d: Definition, ctx: JobContext, err: Error) {
    try {
      await d.onFailed?.(job.payload, err, ctx);
      await jobsRepo.fail(db.q, job.id, worker, now(), err.message);
      deps.metrics?.jobRun(job.name, 'failed');
      log.warn({ err, job: job.name, jobId: job.id, attempts: job.attempts }, 'job failed for good');
    } catch (e) {
      // onFailed did not go through: try it again later (the claim after that goes straight to it)
      log.error({ err: e, job: job.name, jobId: job.id }, 'onFailed of a job failed; retried later');
      await jobsRepo.retry(
        db.q,
        job.id,
        worker,
        new Date(clock.now() + d.backoffMs(job.attempts)),
        `${err.message}; onFailed: ${(e as Error).message}`,
      );
      deps.metrics?.jobRun(job.name, 'retry');
    }
  }

  async function execute(job: ClaimedJobRow): Promise<void> {
    const d = defs.get(job.name);
    if (!d) {
      await jobsRepo.retry(
        db.q,
        job.id,
        worker,
        new Date(clock.now() + opts.leaseMs),
        `no handler for ${job.name} on ${worker}`,
      );
      return;
    }
    const ctx: JobContext = {
      id: job.id,
      name: job.name,
      attempt: job.attempts,
      maxAttempts: job.maxAttempts,
      now: () => clock.now(),
    };
    if (job.attempts > job.maxAttempts) {
      // tries used up earlier (the process died during them, or onFailed failed): only onFailed is left
      await fail(job, d, ctx, new Error(job.lastError ?? 'tries used up'));
      return;
    }
    try {
      await withTimeout(d.handler(job.payload, ctx), d.timeoutMs);
      await jobsRepo.done(db.q, job.id, worker);
      deps.metrics?.jobRun(job.name, 'done');
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      if (err instanceof PermanentJobError || job.attempts >= job.maxAttempts) return fail(job, d, ctx, err);
      log.warn({ err, job: job.name, jobId: job.id, attempt: job.attempts }, 'job failed; will retry');
      deps.metrics?.jobRun(job.name, 'retry');
      await jobsRepo.retry(
        db.q,
        job.id,
        worker,
        new Date(clock.now() + d.backoffMs(job.attempts)),
        err.message,
      );
    }
  }

  /** Runs a held job now (a job born claimed, right after its transaction committed). */
  function run(job: ClaimedJob) {
    if (stopping || running.has(job.id)) return;
    const p = execute(job as ClaimedJobRow)
      .catch((err: unknown) =>
        log.error(
          { err, job: job.name, jobId: job.id },
          'job crashed; it is taken up again when its lease ends',
        ),
      )
      .finally(() => {
        running.delete(job.id);
        // a backlog: claim the next batch once half the room is free (not one job per finished job)
        if (again && running.size <= opts.concurrency / 2) wake();
      });
    running.set(job.id, p);
    ensureHeartbeat();
  }

  function ensureHeartbeat() {
    if (heartbeat || stopping) return;
    heartbeat = setInterval(() => {
      if (!running.size) {
        clearInterval(heartbeat!);
        heartbeat = null;
        return;
      }
      jobsRepo
        .renew(db.q, worker, [...running.keys()], leaseEnd())
        .catch((err: unknown) => log.error({ err }, 'renewing job leases failed'));
    }, opts.heartbeatMs);
    heartbeat.unref();
  }

  async function claim(limit: number, dedupeKey?: string): Promise<ClaimedJobRow[]> {
    return jobsRepo.claim(db.q, {
      worker,
      names: [...defs.keys()],
      now: now(),
      until: leaseEnd(),
      limit,
      ...(dedupeKey !== undefined ? { dedupeKey } : {}),
    });
  }

  /** Moves due schedules on; the winner of a period enqueues its job in the same transaction. */
  async function tickSchedules() {
    const t = clock.now();
    for (const s of schedules.values()) {
      if (s.next > t) continue;
      const next = nextBoundary(t, s.everyMs, s.offsetMs);
      const period = await db.tx(async (tx) => {
        const won = await jobsRepo.advanceSchedule(tx, s.name, new Date(t), new Date(next));
        if (won)
          await jobsRepo.insert(tx, {
            name: s.name,
            payload: s.payload,
            runAt: new Date(t),
            maxAttempts: definition(s.name).maxAttempts,
            dedupeKey: idemKey('schedule', s.name, won.getTime()),
          });
        return won;
      });
      s.next = period ? next : ((await jobsRepo.scheduleNext(db.q, s.name))?.getTime() ?? next);
    }
  }

  /** One round: schedules, then a batch of due jobs (as many as there is room for). */
  async function pollOnce(): Promise<number> {
    await tickSchedules();
    const room = opts.concurrency - running.size;
    if (room <= 0) {
      again = true;
      return 0;
    }
    const jobs = await claim(room);
    again = jobs.length === room;
    for (const job of jobs) run(job);
    return jobs.length;
  }

  function schedulePoll(delay: number) {
    if (!started || stopping) return;
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = setTimeout(() => {
      pollTimer = null;
      if (polling || draining) return schedulePoll(opts.pollMs);
      polling = pollOnce()
        .then((n) => schedulePoll(again && n > 0 ? 0 : opts.pollMs))
        .catch((err: unknown) => {
          log.error({ err }, 'polling for jobs failed');
          schedulePoll(opts.pollMs);
        })
        .finally(() => {
          polling = null;
        });
    }, delay);
    pollTimer.unref();
  }

  /** Look for due jobs now (something was just enqueued, or a batch finished). */
  function wake() {
    schedulePoll(0);
  }

  return {
    worker,
    options: opts,
    define,
    enqueue,
    enqueueMany,
    enqueueClaimed,
    bornClaimed,
    run,

    /**
     * Recurring work: the job `name` (defined) is enqueued once per period across all servers, at
     * multiples of `everyMs` since the epoch (plus `offsetMs`): every hour on the hour, every day at
     * midnight UTC plus an offset. Declare before `start`.
     */
    schedule<N extends JobName>(
      name: N,
      every: { everyMs: number; offsetMs?: number },
      payload: JobPayloads[N],
    ) {
      definition(name);
      if (started) throw new Error(`schedule ${name} declared after the workers started`);
      schedules.set(name, { name, everyMs: every.everyMs, offsetMs: every.offsetMs ?? 0, payload, next: 0 });
    },

    /** Runs the job waiting under this dedupe key now, when it is due and nobody holds it. */
    async runByKey(dedupeKey: string): Promise<boolean> {
      if (stopping) return false;
      const [job] = await claim(1, dedupeKey);
      if (job) run(job);
      return !!job;
    },

    async start() {
      if (started) return;
      started = true;
      stopping = false;
      if (opts.releaseAllOnStart) {
        const freed = await jobsRepo.release(db.q, null);
        if (freed)
          log.info({ jobs: freed }, 'jobs held by a previous process of this embedded database set free');
      } else {
        // a restart on the same machine: a dead predecessor's jobs are free at once, not when their leases end
        for (const h of await jobsRepo.holders(db.q, now())) {
          if (!deadLocalWorker(h.worker)) continue;
          await jobsRepo.release(db.q, h.worker);
          log.info(
            { worker: h.worker, jobs: h.jobs },
            'jobs held by a dead process of this machine set free',
          );
        }
      }
      for (const s of schedules.values()) {
        s.next = (
          await jobsRepo.upsertSchedule(
            db.q,
            s.name,
            s.everyMs,
            new Date(nextBoundary(clock.now(), s.everyMs, s.offsetMs)),
          )
        ).getTime();
      }
      schedulePoll(0);
    },

    /** Stops claiming, waits up to the grace for running jobs, then lets go of what this worker still holds. */
    async stop() {
      if (!started) return;
      stopping = true;
      if (pollTimer) clearTimeout(pollTimer);
      pollTimer = null;
      await polling;
      if (running.size) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...running.values()]),
          new Promise((r) => {
            timer = setTimeout(r, opts.stopGraceMs);
          }),
        ]);
        clearTimeout(timer);
      }
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      await jobsRepo
        .release(db.q, worker)
        .catch((err: unknown) => log.warn({ err }, 'letting go of jobs failed'));
      liveWorkers.delete(worker);
      started = false;
    },

    /**
     * Claims and runs everything due now, and waits for it, until nothing is due (tests, after
     * moving the clock; an operator's "run now"). Returns how many jobs ran.
     */
    async drain(): Promise<number> {
      // the background poll pauses meanwhile, so what it would claim is claimed and awaited here
      draining++;
      try {
        await polling;
        await Promise.allSettled([...running.values()]);
        let total = 0;
        for (;;) {
          await tickSchedules();
          const jobs = await claim(opts.concurrency);
          jobs.forEach((j) => run(j));
          total += jobs.length;
          await Promise.allSettled([...running.values()]);
          if (!jobs.length) return total;
        }
      } finally {
        draining--;
      }
    },

    /** The names of the defined jobs (the metrics' queue gauges). */
    names: () => [...defs.keys()],

    /** Jobs this worker is running. */
    get busy() {
      return running.size;
    },
  };
}

/** The first multiple of `everyMs` (plus offset) after `t`. */
export function nextBoundary(t: number, everyMs: number, offsetMs = 0): number {
  return Math.floor((t - offsetMs) / everyMs) * everyMs + everyMs + offsetMs;
}

export type Jobs = ReturnType<typeof createJobs>;
