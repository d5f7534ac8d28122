import type { Database, Q } from '../db';
import type { Clock } from '../lib/clock';
import type { Jobs } from '../jobs';
import { captchasRepo } from '../repositories/captchas';
import { jobsRepo } from '../repositories/jobs';
import { maintenanceRepo } from '../repositories/maintenance';
import { outboxRepo } from '../repositories/outbox';
import { rateEventsRepo } from '../repositories/rateEvents';
import { sessionsRepo } from '../repositories/sessions';
import { signinCodesRepo } from '../repositories/signin';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Purge =
  | 'purge.captchas'
  | 'purge.rateEvents'
  | 'purge.sessions'
  | 'purge.signinCodes'
  | 'purge.outbox'
  | 'purge.failedJobs';

declare module '../jobs/types' {
  interface JobPayloads {
    'purge.captchas': Record<string, never>;
    'purge.rateEvents': Record<string, never>;
    'purge.sessions': Record<string, never>;
    /** ANALYZE of the app's tables (the planner's statistics). */
    'db.analyze': Record<string, never>;
    'purge.signinCodes': Record<string, never>;
    'purge.outbox': Record<string, never>;
    'purge.failedJobs': Record<string, never>;
  }
}

/**
 * What is kept, and for how long after it stopped mattering (decided; docs/decisions.md "Core"):
 * rows older than this are deleted by an hourly job, in batches.
 */
export const retention: Record<Purge, { keepMs: number; why: string }> = {
  'purge.captchas': {
    keepMs: HOUR,
    why: 'a captcha is answered within minutes; an hour past its expiry it is useless',
  },
  'purge.rateEvents': { keepMs: DAY, why: 'the longest limit window is a day (wrong sign-in codes)' },
  'purge.sessions': {
    keepMs: 7 * DAY,
    why: 'every session expires 30 days after issue; a week past it, a refresh chain a socket may follow is long over',
  },
  'purge.signinCodes': { keepMs: DAY, why: 'a code lives 10 minutes' },
  'purge.outbox': { keepMs: DAY, why: 'dev mode only: the code just sent is what is read' },
  'purge.failedJobs': { keepMs: 30 * DAY, why: 'failed jobs are kept a month for operators' },
};

const deleters: Record<Purge, (q: Q, before: Date, limit: number) => Promise<number>> = {
  'purge.captchas': captchasRepo.deleteExpired,
  'purge.rateEvents': rateEventsRepo.deleteOlder,
  'purge.sessions': sessionsRepo.deleteExpired,
  'purge.signinCodes': signinCodesRepo.deleteExpired,
  'purge.outbox': outboxRepo.deleteOlder,
  'purge.failedJobs': jobsRepo.deleteFailed,
};

/** Rows one statement deletes; a run repeats until less than this went (at most `maxBatches` times). */
const batch = 5_000;
const maxBatches = 200;

/**
 * The purges, as recurring jobs (hourly, a few minutes apart so they do not start together). Each
 * deletes what its table no longer needs, by the app clock.
 */
export function registerPurges(jobs: Jobs, db: Database, clock: Clock) {
  (Object.keys(deleters) as Purge[]).forEach((name, i) => {
    jobs.define(name, async () => {
      const before = new Date(clock.now() - retention[name].keepMs);
      for (let n = 0; n < maxBatches; n++) if ((await deleters[name](db.q, before, batch)) < batch) break;
    });
    jobs.schedule(name, { everyMs: HOUR, offsetMs: (i + 1) * 7 * 60_000 }, {});
  });
  // the planner's statistics (issue 13: PGlite's are never refreshed otherwise), hourly at :55, after the purges
  jobs.define('db.analyze', async () => {
    await maintenanceRepo.analyze(db.q);
  });
  jobs.schedule('db.analyze', { everyMs: HOUR, offsetMs: 55 * 60_000 }, {});
}
