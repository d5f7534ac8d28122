import type { Database, Tx } from '../../db';
import type { Jobs } from '../../jobs';
import type { JobName, JobPayloads } from '../../jobs/types';
import type { Clock } from '../../lib/clock';
import { addDaysIso, isoDay } from '../../lib/dates';
import { isApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import type { Metrics } from '../../metrics';
import { rentalsRepo, type DueRental, type RentalKind } from '../../repositories/rentals';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** The sweep: enqueues the renewal job of every rental (of every kind) whose period is up. */
    'numbers.renewals': Record<string, never>;
  }
}

/** Due rentals the renewal sweep reads and enqueues per statement. */
const sweepPage = 1000;

/** What a due rental's try did; effects outside the database run once it committed. */
type After = () => Promise<void>;

/**
 * A kind of rental as the engine sees it (one small port per kind: services/rentals/numbers,
 * services/rentals/codeNumbers). The engine owns the design every kind shares: the hourly sweep over
 * the due rows of `rentals`, one job per due rental, one transaction per try, the refusals that start
 * a grace period or end the rental, the metrics.
 */
export interface RentalPort<N extends JobName, S> {
  kind: RentalKind;
  /** The per-rental job (its name is the kind's: jobs queued before the engine still run). */
  job: N;
  /** Days a period not paid waits before the rental ends (0: it ends when the charge fails). */
  graceDays: number;
  /** The job's payload and dedupe key for a due row the sweep read (on `today`, an ISO date). */
  dueJob(r: DueRental, today: string): { payload: JobPayloads[N]; dedupeKey: string };
  /** What the try needs read before its transaction (a price read outside it), passed to `lock`. */
  prepare?(p: JobPayloads[N]): Promise<unknown>;
  /** The rental locked for its renewal, or null when it is not due (done already, not this period, gone). */
  lock(tx: Tx, p: JobPayloads[N], prepared: unknown): Promise<S | null>;
  /** Whether it renews (false: the paid period ended and it is let go, `end`). */
  renews(s: S): boolean;
  /** A rental that does not renew, at the end of its period. */
  end(tx: Tx, s: S): Promise<After | void>;
  /** Charges the next period (bill, rental moved on, history): throws ApiError 400001 / 400000 when it cannot. */
  charge(tx: Tx, s: S): Promise<void>;
  /** The ISO day the grace period started (the first due date not paid). */
  graceFrom(s: S): string;
  /** The grace period is over (or there is none): the rental ends, restorable from its history entry. */
  lapse(tx: Tx, s: S, today: string): Promise<After | void>;
  /** Within the grace period: start it (once) and try again tomorrow. */
  wait?(tx: Tx, s: S, p: { today: string; endsOn: string; tomorrow: string }): Promise<After | void>;
}

export interface RentalsEngineDeps {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  metrics?: Pick<Metrics, 'renewal' | 'renewalRefused'> | undefined;
}

/**
 * Renewals of everything paid by the period (issue 19): one sweep and one job per rental.
 *
 * The sweep (hourly, and `runRenewals`) walks the due rows of `rentals` once in (valid_until, id)
 * order, a page per statement, and enqueues each row's job under its kind's dedupe key: a row whose
 * job waits already (a kept verification number's job, enqueued for the exact end of its month when
 * the month was charged) adds nothing, so the sweep is also the net for a job that was lost.
 * Each job is one transaction under the rental's row lock (`renewOne`).
 */
export function createRentalsEngine(d: RentalsEngineDeps) {
  const { db, jobs, clock } = d;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ports of every job name
  const ports = new Map<RentalKind, RentalPort<any, any>>();
  const today = () => isoDay(clock.now());

  async function renewOne<N extends JobName, S>(port: RentalPort<N, S>, payload: JobPayloads[N]) {
    const now = today();
    const after: After[] = [];
    const push = (a: After | void) => {
      if (a) after.push(a);
    };
    const prepared = await port.prepare?.(payload);
    await db.tx(async (tx) => {
      const s = await port.lock(tx, payload, prepared);
      if (!s) return;
      if (!port.renews(s)) {
        push(await port.end(tx, s));
        d.metrics?.renewal(port.kind, 'released', tx);
        return;
      }
      try {
        await port.charge(tx, s);
        d.metrics?.renewal(port.kind, 'renewed', tx);
      } catch (err) {
        if (!isApiError(err) || (err.retcode !== 400001 && err.retcode !== 400000)) throw err;
        d.metrics?.renewalRefused(port.kind, err.retcode, tx);
        const endsOn = addDaysIso(port.graceFrom(s), port.graceDays);
        if (port.graceDays === 0 || !port.wait || now >= endsOn) push(await port.lapse(tx, s, now));
        else push(await port.wait(tx, s, { today: now, endsOn, tomorrow: addDaysIso(now, 1) }));
      }
    });
    for (const a of after) await a();
  }

  jobs.define('numbers.renewals', async () => {
    const at = new Date(clock.now());
    const day = isoDay(at);
    let after: { validUntil: Date; id: number } | null = null;
    for (;;) {
      const due = await rentalsRepo.due(db.q, at, sweepPage, after);
      for (const [kind, port] of ports) {
        const mine = due.filter((r) => r.kind === kind);
        if (mine.length)
          await jobs.enqueueMany(
            db.q,
            port.job,
            mine.map((r) => port.dueJob(r, day)),
          );
      }
      if (due.length < sweepPage) return;
      after = due[due.length - 1]!;
    }
  });
  jobs.schedule('numbers.renewals', { everyMs: 3_600_000, offsetMs: 5 * 60_000 }, {});

  return {
    today,

    /** Adds a kind of rental: its job runs `renewOne` with its port. */
    register<N extends JobName, S>(port: RentalPort<N, S>, o: { maxAttempts: number }) {
      ports.set(port.kind, port);
      jobs.define(port.job, (p) => renewOne(port, p), o);
    },

    /** Runs the renewals due now (the operator's "run renewals now"; tests after moving the clock). */
    async runRenewals(): Promise<void> {
      await jobs.enqueue(
        db.q,
        'numbers.renewals',
        {},
        { dedupeKey: idemKey('number-renew', 'sweep', today()) },
      );
      await jobs.drain();
    },
  };
}

export type RentalsEngine = ReturnType<typeof createRentalsEngine>;
