import type { JobName } from './types';

/** The server's jobs: every declared job but the jobs suite's own (`test.*`, test/jobs.test.ts). */
export type ServerJobName = Exclude<JobName, `test.${string}`>;

/** Where a job is defined (`jobs.define`) and what its handler does. */
export interface JobEntry {
  /** The module that defines the job and holds its handler, relative to apps/server/src. */
  module: string;
  /** What one run does. */
  does: string;
  /** Defined only in this configuration (else on every server). */
  when?: string;
}

/**
 * Every job the server runs, with the module that holds its handler (issue 19 §2). A job is defined
 * where its work lives (the area augments `JobPayloads` there); this list is how a reader finds it.
 * `satisfies Record<JobName, …>` makes the compiler refuse a job that is declared and not listed
 * (or listed and not declared); test/jobs-registry.test.ts checks that a started server defines
 * exactly these and that each module holds its job.
 */
export const jobRegistry = {
  // messages
  'carrier.send': {
    module: 'services/chats/send.ts',
    does: 'hands one stored outgoing message to the carrier (born claimed by the sending server)',
  },

  'chats.scheduled': {
    module: 'services/scheduled.ts',
    does: 'sends one scheduled message at its time through the send path (one job per version of the row)',
  },

  // top-up
  'payments.expire': {
    module: 'services/payments/orders.ts',
    does: 'every minute: closes the pending orders whose time ran out as expired',
  },
  'payments.reconcile': {
    module: 'services/payments/operator.ts',
    does: "daily at 04:00 UTC: compares each provider's transactions of the day before with our books",
  },

  // rented numbers
  'numbers.renewals': {
    module: 'services/rentals/engine.ts',
    does: 'hourly sweep of the rentals engine: enqueues the renewal job of every rental (rented number, kept verification number) that is due',
  },
  'numbers.renew': {
    module: 'services/rentals/numbers/renewal.ts',
    does: "charges one rented number's rent due on a date (a try a day through the grace period)",
  },

  // verification codes
  'codes.expire': {
    module: 'services/codes/lock.ts',
    does: "a lock's window ended: frees the number, unless the lock ended earlier",
  },
  'codes.simSend': {
    module: 'services/codes/supplier.ts',
    does: "the simulator's app sends its code to a locked number",
  },
  'codes.renew': {
    module: 'services/rentals/codeNumbers/renewal.ts',
    does: "a kept verification number's month is up: charges the next month, or lets it lapse",
  },
  'codes.send': {
    module: 'services/codes/send.ts',
    does: 'hands a text sent from a verification number (charged already) to the carrier',
  },
  'codes.supplierPoll': {
    module: 'services/codes/supplier.ts',
    does: "asks a real supplier what a live lock's activation received",
  },
  'codes.supplierFinish': {
    module: 'services/codes/suppliers.ts',
    does: 'tells a supplier again that an activation ended (it refused for now, or was down)',
    when: 'real code suppliers are configured (CODE_SUPPLIER), asked as a set',
  },
  'codes.supplierEventsPrune': {
    module: 'services/codes/suppliers.ts',
    does: "daily: drops the suppliers' refusals older than a month",
    when: 'real code suppliers are configured (CODE_SUPPLIER), asked as a set',
  },

  // webhooks
  'webhooks.deliver': {
    module: 'services/webhooks/deliver.ts',
    does: 'one try of one event to one endpoint (retried on webhookBackoffMs for about a day)',
  },
  'webhooks.purge': {
    module: 'services/webhooks/deliver.ts',
    does: 'hourly: the delivery log keeps a month',
  },

  // web push (issue 23)
  'push.send': {
    module: 'services/push/send.ts',
    does: "sends one notification to one device's push service (after the commit; 404/410 removes the device)",
  },

  // housekeeping
  'purge.captchas': { module: 'services/purges.ts', does: 'hourly: deletes expired captchas' },
  'purge.rateEvents': {
    module: 'services/purges.ts',
    does: 'hourly: deletes rate-limit events older than a day',
  },
  'purge.sessions': { module: 'services/purges.ts', does: 'hourly: deletes expired sessions' },
  'purge.signinCodes': { module: 'services/purges.ts', does: 'hourly: deletes expired sign-in codes' },
  'purge.outbox': {
    module: 'services/purges.ts',
    does: "hourly: deletes the dev outbox's day-old mail and SMS",
  },
  'purge.failedJobs': {
    module: 'services/purges.ts',
    does: 'hourly: deletes failed jobs older than a month',
  },
  'db.analyze': {
    module: 'services/purges.ts',
    does: "hourly at :55: ANALYZE of the app's tables (the planner's statistics)",
  },
} as const satisfies Record<ServerJobName, JobEntry>;

export const jobNames = Object.keys(jobRegistry) as ServerJobName[];
