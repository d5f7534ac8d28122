import {
  constants,
  retmsg,
  type BrandId,
  type Lang,
  type ScheduledMessage,
  type SendPayload,
} from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import type { Jobs } from '../jobs';
import { DAY_MS } from '../lib/dates';
import type { Clock } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { idemKey } from '../lib/idem';
import { phoneFacts } from '../lib/sms';
import type { RealtimeHub } from '../realtime/hub';
import { scheduledRepo, type ScheduledRow } from '../repositories/scheduled';
import { accountText } from './accountTexts';
import type { Sender, SendResult } from './chats';

declare module '../jobs/types' {
  interface JobPayloads {
    /** Sends one scheduled message at its time (one job per version of the row). */
    'chats.scheduled': { id: number; version: number };
  }
}

/** The smsId of the message a scheduled one becomes: the send path's duplicate guard keys on it. */
export const scheduledSmsId = (id: number) => `sch-${id}`;

/** A row as the contract shows it, in a language (a failure's text). */
export function scheduledView(r: ScheduledRow, lang: Lang): ScheduledMessage {
  return {
    id: String(r.id),
    fromNumber: r.own_full_number,
    toNumber: r.other_full_number,
    text: r.text,
    sendAt: r.send_at.getTime(),
    status: r.status,
    version: r.version,
    ...(r.retcode !== null ? { retcode: r.retcode } : {}),
    retmsg: r.retcode !== null ? retmsg(r.retcode, lang) : '',
    ...(r.status === 'sent' ? { smsId: scheduledSmsId(r.id) } : {}),
  };
}

const { scheduled: limits } = constants;

/**
 * Scheduled messages (issue 22 §2; docs/decisions.md "Scheduled messages"). A row and its job are
 * written in one transaction; the job claims the row with one conditional UPDATE (due, this
 * version, waiting → sending) and sends it through the ordinary send path (`send`: the composer's
 * rules, price and ledger) as smsId `sch-<id>`, so a try repeated after a crash stores and charges
 * nothing twice. Nothing is charged when it is scheduled; a refusal at send time (400001: balance too
 * short) fails the row, which the conversation shows with its reason.
 */
export function createScheduledService(deps: {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  realtime: RealtimeHub;
  log: FastifyBaseLogger;
  /** The ordinary send path (services/chats send). */
  send(sender: Sender, p: SendPayload): Promise<SendResult>;
}) {
  const { db, jobs, clock, realtime, log } = deps;
  const now = () => new Date(clock.now());

  const announce = (r: ScheduledRow) =>
    realtime.emitScheduled(r.account_id, (lang) => ({ scheduled: scheduledView(r, lang) }));

  const refuse = (key: Parameters<typeof accountText>[0], detail: string, vars?: Record<string, number>) =>
    new ApiError(400000, null, detail, accountText(key, vars));

  /** The time rules: at least a minute from now, at most a year (366 days) ahead. */
  function checkTime(sendAt: number) {
    const t = clock.now();
    if (sendAt < t + limits.minLeadMs) throw refuse('scheduledTooSoon', 'sendAt too soon');
    if (sendAt > t + limits.maxAheadDays * DAY_MS)
      throw refuse('scheduledTooFar', 'sendAt too far ahead', { days: limits.maxAheadDays });
  }

  /** Claims a due row of this version and sends it; nothing when it is not (cancelled, edited, sent). */
  async function sendOne(id: number, version: number): Promise<void> {
    const row = await scheduledRepo.claim(db.q, id, version, now());
    if (!row) return;
    const result = await deps.send(
      { accountId: row.account_id, brand: row.brand as BrandId },
      {
        fromNumber: row.own_full_number,
        toNumber: row.other_full_number,
        text: row.text,
        msgType: 'sms',
        smsId: scheduledSmsId(row.id),
        platform: row.brand as BrandId,
        languagecode: 'en',
      },
    );
    const done =
      result.kind === 'refused'
        ? await scheduledRepo.finish(db.q, row.id, {
            status: 'failed',
            retcode: result.retcode,
            retmsg: result.detail ?? '',
            now: now(),
          })
        : await scheduledRepo.finish(db.q, row.id, { status: 'sent', retcode: null, retmsg: '', now: now() });
    if (done) announce(done);
    if (result.kind === 'refused')
      log.info({ scheduledId: row.id, retcode: result.retcode }, 'scheduled message not sent');
  }

  jobs.define('chats.scheduled', ({ id, version }) => sendOne(id, version), {
    maxAttempts: 5,
    async onFailed({ id }, err) {
      // the send path kept failing (not a refusal: those fail the row at once)
      const done = await scheduledRepo.finish(db.q, id, {
        status: 'failed',
        retcode: 100000,
        retmsg: err.message.slice(0, 300),
        now: now(),
      });
      if (done) announce(done);
    },
  });

  const enqueue = (tx: Parameters<Jobs['enqueue']>[0], r: ScheduledRow) =>
    jobs.enqueue(
      tx,
      'chats.scheduled',
      { id: r.id, version: r.version },
      { runAt: r.send_at.getTime(), dedupeKey: idemKey('sched', r.id, r.version) },
    );

  return {
    sendOne,

    async schedule(
      sender: Sender,
      p: { fromNumber: string; toNumber: string; text: string; sendAt: number },
      lang: Lang,
    ): Promise<{ scheduled: ScheduledMessage }> {
      const { accountId } = sender;
      if (!(await scheduledRepo.holds(db.q, accountId, p.fromNumber)))
        throw new ApiError(300032, null, 'fromNumber is not one of your numbers');
      const dest = phoneFacts(p.toNumber);
      if (!dest || dest.full === p.fromNumber)
        throw new ApiError(300031, null, 'toNumber is not a valid number');
      checkTime(p.sendAt);
      const row = await db.tx(async (tx) => {
        await scheduledRepo.lockAccount(tx, accountId);
        if ((await scheduledRepo.countWaiting(tx, accountId)) >= limits.maxWaiting)
          throw refuse('scheduledFull', 'too many scheduled messages', { max: limits.maxWaiting });
        const r = await scheduledRepo.insert(tx, {
          accountId,
          brand: sender.brand,
          own: p.fromNumber,
          other: dest.full,
          text: p.text,
          sendAt: new Date(p.sendAt),
          now: now(),
        });
        await enqueue(tx, r);
        return r;
      });
      announce(row);
      return { scheduled: scheduledView(row, lang) };
    },

    async list(accountId: number, own: string, other: string, lang: Lang) {
      const rows = await scheduledRepo.listChat(db.q, accountId, own, other);
      return { scheduled: rows.map((r) => scheduledView(r, lang)) };
    },

    async edit(
      accountId: number,
      p: { id: string; version: number; text: string; sendAt: number },
      lang: Lang,
    ): Promise<{ scheduled: ScheduledMessage }> {
      const id = Number(p.id);
      const before = await scheduledRepo.ofAccount(db.q, accountId, id);
      if (!before || before.status === 'cancelled') throw new ApiError(100002);
      checkTime(p.sendAt);
      const row = await db.tx(async (tx) => {
        const r = await scheduledRepo.edit(tx, {
          accountId,
          id,
          version: p.version,
          text: p.text,
          sendAt: new Date(p.sendAt),
          now: now(),
        });
        if (r) await enqueue(tx, r);
        return r;
      });
      if (!row) throw await tooLate(accountId, id);
      announce(row);
      return { scheduled: scheduledView(row, lang) };
    },

    async cancel(accountId: number, id: string, lang: Lang): Promise<{ scheduled: ScheduledMessage }> {
      const row = await scheduledRepo.cancel(db.q, accountId, Number(id), now());
      if (!row) {
        const r = await scheduledRepo.ofAccount(db.q, accountId, Number(id));
        if (r?.status === 'cancelled') return { scheduled: scheduledView(r, lang) };
        throw await tooLate(accountId, Number(id));
      }
      announce(row);
      return { scheduled: scheduledView(row, lang) };
    },

    /** Dev only: the waiting messages from an own number become due now and go (E2E cannot wait for their time). */
    async runDueNow(own: string): Promise<number> {
      const due = await scheduledRepo.makeDue(db.q, own, now());
      for (const d of due) await sendOne(d.id, d.version);
      return due.length;
    },
  };

  /** Why an edit or cancel found nothing to change: gone (100002), or no longer waiting (400000). */
  async function tooLate(accountId: number, id: number): Promise<ApiError> {
    const r = await scheduledRepo.ofAccount(db.q, accountId, id);
    if (!r) return new ApiError(100002);
    if (r.status === 'sending' || r.status === 'sent')
      return refuse('scheduledAlreadySent', `scheduled message ${r.status}`);
    return refuse('scheduledChanged', 'changed meanwhile');
  }
}

export type ScheduledService = ReturnType<typeof createScheduledService>;
