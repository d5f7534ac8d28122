import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import { constants, socketEvents } from '@numa/contract';
import type { Database, Tx } from '../db';
import { afterCommit } from '../db/context';
import type { Clock } from '../lib/clock';
import { isApiError } from '../lib/errors';
import {
  CarrierError,
  type CarrierPort,
  type CarrierSink,
  type OutboundMessage,
  type OutboundSms,
} from '../providers/carrier/port';
import { metricsRepo } from '../repositories/metrics';

/**
 * Prometheus metrics of one app (issue 18 §8; README "Metrics"; docs/decisions.md "Metrics"). Each
 * app has its own registry (tests and benchmarks run several apps in one process); the Node process
 * metrics, which are the process's whatever the number of apps, come from one registry made once per
 * process and are appended to every scrape. Services call the methods below, one line per site; the
 * carrier port and the payment notifications are observed from outside (`observeCarrier`,
 * `observePayments`), the ledger's bills through the database facade (`onBillsWritten`), the job
 * queue's depth by one bounded query when scraped.
 */

/** The most due job rows one scrape reads (the counts are lower bounds past it: `numa_jobs_queue_truncated`). */
export const jobQueueScanCap = 10_000;

/** HTTP latency buckets (seconds): API calls answer in milliseconds, uploads and lists take longer. */
const httpBuckets = [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const carrierBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
const clientEvents = new Set<string>([socketEvents.sendMessage]);
const billTypeNames = new Map<number, string>(
  Object.entries(constants.billTypes).map(([name, type]) => [type, name]),
);

/** How a socket event (or handshake) ended, from the retcode it was answered with. */
export type SocketOutcome = 'ok' | 'refused' | 'limited' | 'error';
const socketOutcome = (retcode: number): SocketOutcome =>
  retcode === 0 ? 'ok' : retcode === 100015 ? 'limited' : retcode === 100000 ? 'error' : 'refused';

export type JobOutcome = 'done' | 'retry' | 'failed';
export type RenewalKind = 'number' | 'code_number';
export type RenewalOutcome = 'renewed' | 'insufficient_balance' | 'not_offered' | 'released' | 'failed';
/** Renewal jobs by kind: a try of theirs that throws is a `failed` renewal. */
const renewalJobs = new Map<string, RenewalKind>([
  ['numbers.renew', 'number'],
  ['codes.renew', 'code_number'],
]);
export type CodeLockEnd = 'expired' | 'replaced' | 'polled_out' | 'released';
export type CodeSmsOutcome = 'charged' | 'unpaid' | 'unmatched';

/** What the scrape reads besides the counters (given once the app has built them). */
export interface MetricsSources {
  clock: Clock;
  /** The job names this server runs (each gets its gauges, 0 when nothing is due). */
  jobs: { names(): string[] };
  /** This server's socket.io server, while attached. */
  realtime: { readonly server: { of(nsp: '/'): { sockets: { size: number } } } | null };
}

let processRegistry: Registry | null = null;
/** The Node process metrics (CPU, memory, event loop, GC, handles): one registry per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(deps: { db: Database; log: FastifyBaseLogger }) {
  const { db, log } = deps;
  // the process's CPU counters count from when their registry was made: make it with the first app
  processMetrics();
  const registry = new Registry();
  const registers = [registry];
  let sources: MetricsSources | null = null;

  const http = new Histogram({
    name: 'numa_http_request_duration_seconds',
    help: 'HTTP requests by route pattern (never the raw URL), method and status class, until the answer was sent',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: httpBuckets,
    registers,
  });
  const socketEventsTotal = new Counter({
    name: 'numa_socket_events_total',
    help: 'Socket events received, by event and outcome (ok, refused by the rules or the input, limited by the flood limits, error) and retcode',
    labelNames: ['event', 'outcome', 'retcode'] as const,
    registers,
  });
  const socketHandshakes = new Counter({
    name: 'numa_socket_handshakes_total',
    help: 'Socket handshakes, by outcome (ok, refused, limited, error) and retcode',
    labelNames: ['outcome', 'retcode'] as const,
    registers,
  });
  const socketFlooders = new Counter({
    name: 'numa_socket_flood_disconnects_total',
    help: 'Sockets disconnected for flooding (too many events refused in a row)',
    registers,
  });
  new Gauge({
    name: 'numa_sockets_connected',
    help: 'Authenticated sockets connected to this server',
    registers,
    collect() {
      this.set(sources?.realtime.server?.of('/').sockets.size ?? 0);
    },
  });
  const jobRuns = new Counter({
    name: 'numa_job_runs_total',
    help: 'Job tries run by this server, by job and outcome: done, retry (failed, tried again later), failed (for good)',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  const jobsWaiting = new Gauge({
    name: 'numa_jobs_due',
    help: 'Jobs due and waiting for a worker, by job (the whole queue, all servers)',
    labelNames: ['job'] as const,
    registers,
  });
  const jobsRunning = new Gauge({
    name: 'numa_jobs_running',
    help: 'Jobs due and held by a worker whose lease has not ended, by job (all servers)',
    labelNames: ['job'] as const,
    registers,
  });
  const jobsOldest = new Gauge({
    name: 'numa_jobs_oldest_due_age_seconds',
    help: 'How long the oldest job waiting for a worker has been due, by job (0: none waits)',
    labelNames: ['job'] as const,
    registers,
  });
  const jobsTruncated = new Gauge({
    name: 'numa_jobs_queue_truncated',
    help: `1 when the scrape met its cap of ${jobQueueScanCap} due jobs: the due counts are lower bounds`,
    registers,
  });
  const carrierHandovers = new Counter({
    name: 'numa_carrier_handovers_total',
    help: 'Messages handed to the carrier, by carrier, kind (message: a chat message; system: a code) and outcome (accepted, refused for good, failed: a transient error, tried again)',
    labelNames: ['carrier', 'kind', 'outcome'] as const,
    registers,
  });
  const carrierSeconds = new Histogram({
    name: 'numa_carrier_handover_duration_seconds',
    help: 'How long the carrier took to answer a hand-over, by carrier and kind',
    labelNames: ['carrier', 'kind'] as const,
    buckets: carrierBuckets,
    registers,
  });
  const carrierReports = new Counter({
    name: 'numa_carrier_reports_total',
    help: 'Delivery reports the carrier brought, by carrier and status (sent, delivered, failed)',
    labelNames: ['carrier', 'status'] as const,
    registers,
  });
  const carrierInbound = new Counter({
    name: 'numa_carrier_inbound_total',
    help: 'Messages the carrier brought in, by carrier and outcome (delivered to a holder, dropped: no one holds the number)',
    labelNames: ['carrier', 'outcome'] as const,
    registers,
  });
  const paymentOrders = new Counter({
    name: 'numa_payment_orders_total',
    help: 'Top-up orders created, by provider, method and outcome (opened: the checkout is open; checkout_failed)',
    labelNames: ['provider', 'method', 'outcome'] as const,
    registers,
  });
  const paymentNotices = new Counter({
    name: 'numa_payment_notifications_total',
    help: "Providers' payment notifications, by provider and outcome (credited: a payment, or a refund or dispute giving money back; debited: a refund or chargeback taking it; failed, recorded: a refund or dispute that moved nothing, duplicate, ignored, refused: forged, unknown order, wrong brand or amount; error)",
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const bills = new Counter({
    name: 'numa_ledger_bills_total',
    help: 'Bills committed to the ledger by this server, by bill type',
    labelNames: ['type'] as const,
    registers,
  });
  const renewals = new Counter({
    name: 'numa_renewals_total',
    help: 'Due renewals, by kind (number: rented numbers; code_number: kept verification numbers) and outcome (renewed, insufficient_balance, not_offered, released: not renewing, failed: an error, tried again)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const codeLocks = new Counter({
    name: 'numa_code_locks_total',
    help: 'Verification-code number locks, by outcome (taken, refused) and reason of a refusal (limit: live locks per account, no_number)',
    labelNames: ['outcome', 'reason'] as const,
    registers,
  });
  const codeLocksEnded = new Counter({
    name: 'numa_code_locks_ended_total',
    help: 'Locks ended, by reason (expired, replaced: another number tried, polled_out: Done, released: given back)',
    labelNames: ['reason'] as const,
    registers,
  });
  const codeSms = new Counter({
    name: 'numa_code_sms_total',
    help: 'Code SMS that reached a number, by outcome (charged, unpaid: withheld for the balance, unmatched: no live lock)',
    labelNames: ['outcome'] as const,
    registers,
  });

  const stopBills = db.onBillsWritten((types) => {
    for (const t of types) bills.inc({ type: billTypeNames.get(t) ?? String(t) });
  });

  /** Runs `fn` now, or once `tx` committed when given. */
  const when = (tx: Tx | undefined, fn: () => void) => (tx ? afterCommit(tx, fn) : fn());

  async function collectQueue() {
    if (!sources) return;
    const now = sources.clock.now();
    const { rows, truncated } = await metricsRepo.jobQueue(db.q, new Date(now), jobQueueScanCap);
    jobsWaiting.reset();
    jobsRunning.reset();
    jobsOldest.reset();
    for (const name of sources.jobs.names()) {
      jobsWaiting.set({ job: name }, 0);
      jobsRunning.set({ job: name }, 0);
      jobsOldest.set({ job: name }, 0);
    }
    for (const r of rows) {
      jobsWaiting.set({ job: r.name }, r.waiting);
      jobsRunning.set({ job: r.name }, r.running);
      jobsOldest.set(
        { job: r.name },
        r.oldestWaiting ? Math.max(0, (now - r.oldestWaiting.getTime()) / 1000) : 0,
      );
    }
    jobsTruncated.set(truncated ? 1 : 0);
  }

  function timedHandover<T>(carrier: string, kind: 'message' | 'system', p: Promise<T>): Promise<T> {
    const end = carrierSeconds.startTimer({ carrier, kind });
    return p.then(
      (v) => {
        end();
        carrierHandovers.inc({ carrier, kind, outcome: 'accepted' });
        return v;
      },
      (err: unknown) => {
        end();
        const refused = err instanceof CarrierError && err.permanent;
        carrierHandovers.inc({ carrier, kind, outcome: refused ? 'refused' : 'failed' });
        throw err;
      },
    );
  }

  function observedSink(carrier: string, sink: CarrierSink): CarrierSink {
    return {
      async inbound(m) {
        const r = await sink.inbound(m);
        carrierInbound.inc({ carrier, outcome: r.delivered ? 'delivered' : 'dropped' });
        return r;
      },
      async status(u) {
        await sink.status(u);
        carrierReports.inc({ carrier, status: u.status });
      },
    };
  }

  return {
    registry,

    /** The text of a scrape: this app's metrics (the job queue read now), then the process's. */
    async scrape(): Promise<string> {
      try {
        await collectQueue();
      } catch (err) {
        // the rest of the scrape still answers; the queue gauges keep their last values
        log.warn({ err }, 'metrics: reading the job queue failed');
      }
      const [own, proc] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${own}\n${proc}`;
    },
    contentType: registry.contentType,

    /** The scrape's sources, once the app has built them (app.ts). */
    watch(s: MetricsSources) {
      sources = s;
    },

    /** An answered HTTP request (the metrics plugin's onResponse hook). */
    http(route: string | undefined, method: string, status: number, seconds: number) {
      http.observe(
        {
          route: route ?? 'unmatched',
          method: methods.has(method) ? method : 'OTHER',
          status_class: `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`,
        },
        seconds,
      );
    },

    /** A socket event answered with `retcode` (0: done). Event names other than the client's own count as `other`. */
    socketEvent(event: string, retcode: number) {
      socketEventsTotal.inc({
        event: clientEvents.has(event) ? event : 'other',
        outcome: socketOutcome(retcode),
        retcode: String(retcode),
      });
    },
    /** A socket handshake accepted (0) or refused with `retcode`. */
    socketHandshake(retcode: number) {
      socketHandshakes.inc({ outcome: socketOutcome(retcode), retcode: String(retcode) });
    },
    socketFlooder() {
      socketFlooders.inc();
    },

    /** A job try of this server ended. */
    jobRun(job: string, outcome: JobOutcome) {
      jobRuns.inc({ job, outcome });
      const kind = renewalJobs.get(job);
      if (kind && outcome !== 'done') renewals.inc({ kind, outcome: 'failed' });
    },

    /** The carrier with its hand-overs, delivery reports and inbound messages counted (everything else as it is). */
    observeCarrier<C extends CarrierPort>(port: C): C {
      return new Proxy(port, {
        get(target, prop) {
          if (prop === 'sendSms')
            return (m: OutboundSms) => timedHandover(target.name, 'system', target.sendSms(m));
          if (prop === 'sendMessage')
            return (m: OutboundMessage) => timedHandover(target.name, 'message', target.sendMessage(m));
          if (prop === 'attach') return (sink: CarrierSink) => target.attach(observedSink(target.name, sink));
          const v: unknown = Reflect.get(target, prop, target);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    },

    /**
     * Counts the payment service's notifications by what `notify` answered the provider: its outcome,
     * `refused` for a refusal (an ApiError: a forged signature, an unknown order, a wrong brand or
     * amount), `error` for anything else. A notification to a provider name that is not configured
     * is not counted (its label would be the caller's to choose); the HTTP metrics show it.
     */
    observePayments(svc: {
      notify(provider: string, webhook: never, hostBrand: never): Promise<string>;
    }): void {
      const notify = svc.notify.bind(svc);
      svc.notify = async (provider, webhook, hostBrand) => {
        try {
          const outcome = await notify(provider, webhook, hostBrand);
          paymentNotices.inc({ provider, outcome });
          return outcome;
        } catch (err) {
          if (!isApiError(err)) paymentNotices.inc({ provider, outcome: 'error' });
          else if (!(err.retcode === 100003 && !err.detail))
            paymentNotices.inc({ provider, outcome: 'refused' });
          throw err;
        }
      };
    },

    /** A top-up order was stored: its checkout opened, or failed to. */
    paymentOrder(provider: string, method: string, outcome: 'opened' | 'checkout_failed') {
      paymentOrders.inc({ provider, method, outcome });
    },

    /** A due renewal's outcome; inside a transaction, counted once it commits. */
    renewal(kind: RenewalKind, outcome: Exclude<RenewalOutcome, 'failed'>, tx?: Tx) {
      when(tx, () => renewals.inc({ kind, outcome }));
    },
    /** A due renewal not charged, by the retcode of its refusal: 400001 insufficient_balance, else not_offered. */
    renewalRefused(kind: RenewalKind, retcode: number, tx?: Tx) {
      const outcome = retcode === 400001 ? 'insufficient_balance' : 'not_offered';
      when(tx, () => renewals.inc({ kind, outcome }));
    },

    /** A new lock committed, with the expired locks of the same number it ended. */
    codeLockTaken(endedExpired = 0) {
      codeLocks.inc({ outcome: 'taken', reason: '' });
      if (endedExpired) codeLocksEnded.inc({ reason: 'expired' }, endedExpired);
    },
    codeLockRefused(reason: 'limit' | 'no_number') {
      codeLocks.inc({ outcome: 'refused', reason });
    },
    codeLockEnded(reason: string) {
      codeLocksEnded.inc({ reason });
    },
    codeSms(outcome: CodeSmsOutcome) {
      codeSms.inc({ outcome });
    },

    close() {
      stopBills();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
