import { constants, type BrandId, type Retcode, type SendPayload } from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db';
import { isApiError } from '../lib/errors';
import { countSegments, phoneFacts, telCodeOf } from '../lib/sms';
import {
  CarrierError,
  type CarrierPort,
  type CarrierSink,
  type InboundMessage,
  type StatusUpdate,
} from '../providers/carrier/port';
import { carrierJobsRepo, type CarrierJob } from '../repositories/carrierJobs';
import { rateEventsRepo } from '../repositories/codes';
import { ledgerRepo } from '../repositories/ledger';
import { messagesRepo, sendFactsRepo, type MessageRow } from '../repositories/messages';
import { numbersRepo } from '../repositories/numbers';
import type { RealtimeHub } from '../realtime/hub';
import { mediaIdFromUrl, type MediaService } from './media';

export interface ChatOptions {
  /**
   * Abuse guard (decided): an account may start conversations with this many new numbers within the
   * window; the next new number needs a solved captcha (100010). Texting numbers it already talks to
   * is never held up.
   */
  newRecipientLimit: number;
  newRecipientWindowMs: number;
  /** A claimed carrier job is another process's to resume after this long (its owner died). */
  leaseMs: number;
  /** How often the worker looks for due jobs (retries, and jobs left by a crash). */
  pollMs: number;
  /** Attempts of a send on transient carrier errors before it fails. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time. */
  retryDelayMs: number;
  /** A carrier call that takes longer counts as a transient failure. */
  carrierTimeoutMs: number;
}

export const defaultChatOptions: ChatOptions = {
  newRecipientLimit: 10,
  newRecipientWindowMs: 10 * 60_000,
  leaseMs: 60_000,
  pollMs: 2_000,
  maxAttempts: 3,
  retryDelayMs: 2_000,
  carrierTimeoutMs: 20_000,
};

export interface Sender {
  accountId: number;
  brand: BrandId;
}

export type SendResult =
  /** Refused before anything was stored or charged. */
  | { kind: 'refused'; retcode: Retcode; detail?: string }
  /** Stored, charged and queued for the carrier; the confirmation follows on the account's sockets. */
  | { kind: 'stored'; row: MessageRow }
  /** This smsId was stored before (a resend after a reconnect): nothing new is stored or charged. */
  | { kind: 'repeat'; row: MessageRow };

/**
 * Carrier error codes that mean something the user can act on (Twilio's numbering; the simulator
 * uses the same). Anything else is "the message could not be sent" with the carrier's reason.
 */
const carrierRetcodes: Record<string, Retcode> = {
  '21211': 300031, // invalid 'To' number
  '21612': 300031, // cannot route to this number
  '21614': 300031, // not a mobile number
  '21610': 300031, // the recipient replied STOP
  '21606': 300032, // the 'From' number cannot send
  '21659': 300032, // the 'From' number is not ours at the carrier
  '30032': 300030, // toll-free number not verified
};

/** The rates' currency of a brand: cloud coins on cloudnumber, else USD (1 Coin = 1 USD). */
const currencyOf = (brand: BrandId) => (brand === 'cloudnumber' ? 'cny' : 'usd');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CarrierError(`carrier did not answer in ${ms} ms`, 'timeout', false)),
      ms,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Messages: the sending rules, storing before handing over, charging, the carrier work queue, inbound
 * delivery and status updates. Every message is stored (and an outgoing one charged, in the same
 * transaction, idempotently by its smsId) before the carrier sees it; the carrier work is a row
 * resumed after a crash, so nothing is lost and nothing is charged twice.
 */
export function createChatService(deps: {
  db: Database;
  carrier: CarrierPort;
  media: MediaService;
  realtime: RealtimeHub;
  log: FastifyBaseLogger;
  options?: Partial<ChatOptions>;
}) {
  const { db, carrier, media, realtime, log } = deps;
  const opts: ChatOptions = { ...defaultChatOptions, ...deps.options };
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const refuse = (retcode: Retcode, detail?: string): SendResult => ({
    kind: 'refused',
    retcode,
    ...(detail ? { detail } : {}),
  });

  /** Whether starting a conversation with one more new number needs a captcha first. */
  async function needsCaptcha(accountId: number): Promise<boolean> {
    const window = opts.newRecipientWindowMs;
    const solved = await rateEventsRepo.stats(db, `chat-captcha:${accountId}`, window);
    const since = Math.min(window, solved.lastAgoMs ?? window);
    const fresh = await rateEventsRepo.stats(db, `chat-new:${accountId}`, since);
    return fresh.count >= opts.newRecipientLimit;
  }

  async function send(sender: Sender, p: SendPayload): Promise<SendResult> {
    const { accountId } = sender;
    const existing = await messagesRepo.bySmsId(db, accountId, p.smsId);
    if (existing) return { kind: 'repeat', row: existing };

    const dest = phoneFacts(p.toNumber);
    const currency = currencyOf(sender.brand);
    const facts = await sendFactsRepo.read(db, {
      accountId,
      from: p.fromNumber,
      to: dest?.full ?? '',
      currency,
      country: dest?.country ?? null,
    });
    if (facts.holderId !== accountId) return refuse(300032, 'fromNumber is not one of your numbers');
    const own = { fullNumber: p.fromNumber, telCode: facts.telCode!, country: facts.country };
    if (!dest || dest.full === own.fullNumber) return refuse(300031, 'toNumber is not a valid number');
    if (p.msgType === 'mms' && own.country === 'CA') return refuse(300034);
    // UK: every +44 number (Great Britain, Northern Ireland and the Crown dependencies)
    if (p.msgType === 'mms' && own.telCode === '44') return refuse(300035);
    if (facts.tollFree && !facts.tollFreeVerified) return refuse(300030);
    const isNew = !facts.known;
    if (isNew && (await needsCaptcha(accountId)))
      return refuse(100010, 'too many new numbers in a short time');

    if (facts.sms === null || facts.mms === null)
      throw new Error(`no message rate for ${currency} ${dest.country}`);
    const segments = p.msgType === 'sms' ? countSegments(p.text).segments : 1;
    const charge = p.msgType === 'sms' ? facts.sms * segments : facts.mms;
    if (facts.balance <= 0 || facts.balance < charge) return refuse(400001);

    try {
      const outcome = await db.tx(async (q): Promise<SendResult & { job?: CarrierJob }> => {
        const { applied } = await ledgerRepo.apply(q, {
          accountId,
          type: p.msgType === 'sms' ? constants.billTypes.sms : constants.billTypes.mms,
          charge: -charge,
          options: {
            direction: 'out',
            from: own.fullNumber,
            to: dest.full,
            type: p.msgType,
            count: segments,
            countryCode: dest.telCode,
          },
          idempotencyKey: `msg:${accountId}:${p.smsId}`,
        });
        if (!applied) {
          // a twin of this send (same smsId) committed first
          const twin = await messagesRepo.bySmsId(q, accountId, p.smsId);
          if (!twin) throw new Error(`charge of ${p.smsId} exists without its message`);
          return { kind: 'repeat', row: twin };
        }
        let mediaUrl = '';
        if (p.msgType === 'mms') {
          const bytes = p.fileBuffer instanceof Uint8Array ? p.fileBuffer : new Uint8Array(p.fileBuffer);
          const saved = await media.save({
            accountId,
            kind: 'mms',
            bytes,
            allowed: constants.mmsMimeTypes,
            maxBytes: constants.mmsMaxBytes,
            fileName: p.fileName,
            q,
          });
          mediaUrl = saved.url;
        }
        const row = await messagesRepo.insert(q, {
          accountId,
          ownFullNumber: own.fullNumber,
          ownTelCode: own.telCode,
          otherFullNumber: dest.full,
          otherTelCode: dest.telCode,
          direction: 'out',
          type: p.msgType,
          text: p.text ?? '',
          media: mediaUrl,
          status: constants.messageStatus.pending,
          smsId: p.smsId,
          charge,
          segments,
          carrier: carrier.name,
        });
        if (isNew) await rateEventsRepo.record(q, `chat-new:${accountId}`);
        // the job is born claimed by this process: it runs right after the commit, and another
        // process takes it over only if this one dies before its lease ends
        const job = await carrierJobsRepo.enqueue(q, row.id, opts.leaseMs);
        return { kind: 'stored', row, job };
      });
      if (outcome.kind === 'stored' && outcome.job) start(outcome.job, outcome.row);
      return outcome.kind === 'stored' ? { kind: 'stored', row: outcome.row } : outcome;
    } catch (err) {
      if (isApiError(err)) return refuse(err.retcode, err.detail);
      throw err;
    }
  }

  /** Refunds a failed message's charge once. */
  async function failMessage(
    row: MessageRow,
    retcode: Retcode,
    reason: string,
    jobId: number | null,
  ): Promise<MessageRow | null> {
    return db.tx(async (q) => {
      if (jobId !== null) await carrierJobsRepo.done(q, jobId);
      const updated = await messagesRepo.setOutcome(q, row.id, {
        status: constants.messageStatus.failed,
        retcode,
        retmsg: reason.slice(0, 300),
      });
      if (!updated) return null;
      if (row.charge > 0) {
        await ledgerRepo.apply(q, {
          accountId: row.accountId,
          type: constants.billTypes.refund,
          charge: row.charge,
          options: {
            direction: 'out',
            from: row.ownFullNumber,
            to: row.otherFullNumber,
            type: row.type,
            count: row.segments,
            successCount: 0,
          },
          idempotencyKey: `msg-refund:${row.id}`,
        });
      }
      return updated;
    });
  }

  /** Hands a message to the carrier; `known` is the row when the caller has it (a fresh send). */
  async function runJob(job: CarrierJob, known?: MessageRow): Promise<void> {
    const row = known ?? (await messagesRepo.byId(db, job.messageId));
    if (!row || row.status !== constants.messageStatus.pending) {
      await carrierJobsRepo.done(db, job.id);
      return;
    }
    const ids = row.media
      .split(',')
      .map((u) => mediaIdFromUrl(u.trim()))
      .filter((x): x is string => !!x);
    const types = await carrierJobsRepo.mediaTypes(db, ids);
    try {
      const accepted = await withTimeout(
        carrier.sendMessage({
          from: row.ownFullNumber,
          to: row.otherFullNumber,
          text: row.text,
          media: ids.map((id) => ({ id, mime: types.get(id) ?? 'application/octet-stream' })),
          idempotencyKey: `msg-${row.id}`,
        }),
        opts.carrierTimeoutMs,
      );
      const sent = await db.tx(async (q) => {
        await carrierJobsRepo.done(q, job.id);
        return messagesRepo.setOutcome(q, row.id, {
          status: constants.messageStatus.sent,
          carrier: carrier.name,
          carrierId: accepted.id,
        });
      });
      if (sent) realtime.emitMessage(sent);
    } catch (err) {
      const e = err as Error;
      const permanent = err instanceof CarrierError && err.permanent;
      if (!permanent && job.attempts < opts.maxAttempts) {
        log.warn({ err, messageId: row.id, attempt: job.attempts }, 'carrier send failed; will retry');
        await carrierJobsRepo.retryLater(db, job.id, opts.retryDelayMs * 2 ** (job.attempts - 1), e.message);
        return;
      }
      log.warn({ err, messageId: row.id }, 'message failed');
      const code =
        err instanceof CarrierError && err.carrierCode ? carrierRetcodes[err.carrierCode] : undefined;
      const failed = await failMessage(row, code ?? 300036, e.message, job.id);
      if (failed) realtime.emitMessage(failed);
    }
  }

  function track(p: Promise<void>) {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  function start(job: CarrierJob, known?: MessageRow) {
    track(
      runJob(job, known).catch((err: unknown) => {
        log.error({ err, jobId: job.id }, 'carrier job crashed; it is resumed when its lease ends');
      }),
    );
  }

  /** Claims and runs due jobs (one message's job, or a batch). */
  async function runDue(filter: { messageId?: number } = {}): Promise<number> {
    if (stopped) return 0;
    const jobs = await carrierJobsRepo.claim(db, { leaseMs: opts.leaseMs, limit: 20, ...filter });
    for (const job of jobs) start(job);
    return jobs.length;
  }

  function runSoon(filter: { messageId?: number }) {
    track(
      runDue(filter)
        .then(() => undefined)
        .catch((err: unknown) => log.error({ err }, 'claiming carrier jobs failed')),
    );
  }

  const sink: CarrierSink = {
    async inbound(m: InboundMessage) {
      const to = m.to.replace(/\D/g, '');
      const holder = await numbersRepo.byFullNumber(db, to);
      if (!holder) return { delivered: false };
      const from = m.from.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
      if (from.length < 3) {
        log.warn({ from: m.from, to }, 'inbound message without a usable sender dropped');
        return { delivered: false };
      }
      const smsId = `in:${m.carrierId.replace(/[^A-Za-z0-9_.:-]/g, '')}`.slice(0, 64);
      const type = m.type ?? (m.media.length ? 'mms' : 'sms');
      if (await messagesRepo.bySmsId(db, holder.accountId, smsId)) return { delivered: true };
      const row = await db.tx(async (q) => {
        const urls: string[] = [];
        for (const item of m.media) {
          if ('mediaId' in item) {
            await media.grant(q, item.mediaId, holder.accountId);
            urls.push(`/media/${item.mediaId}`);
          } else {
            const saved = await media.save({
              accountId: holder.accountId,
              kind: type === 'voicemail' ? 'voicemail' : 'mms',
              bytes: item.bytes,
              allowed: type === 'voicemail' ? constants.voicemailMimeTypes : constants.mmsMimeTypes,
              maxBytes: constants.mmsMaxBytes,
              fileName: item.fileName,
              q,
            });
            urls.push(saved.url);
          }
        }
        return messagesRepo.insert(q, {
          accountId: holder.accountId,
          ownFullNumber: holder.fullNumber,
          ownTelCode: holder.telCode,
          otherFullNumber: from,
          otherTelCode: telCodeOf(from),
          direction: 'in',
          type,
          text: m.text.slice(0, constants.smsTextMax * 4),
          media: urls.join(','),
          status: constants.messageStatus.sent,
          smsId,
          charge: 0,
          segments: type === 'sms' ? countSegments(m.text).segments : 1,
          carrier: carrier.name,
          carrierId: m.carrierId,
        });
      });
      if (row) realtime.emitMessage(row);
      return { delivered: true };
    },

    async status(u: StatusUpdate) {
      const row = await messagesRepo.byCarrierId(db, u.carrierId);
      if (!row) return;
      if (u.status === 'failed') {
        const code = u.errorCode ? carrierRetcodes[u.errorCode] : undefined;
        const failed = await failMessage(
          row,
          code ?? 300036,
          u.reason ?? `carrier error ${u.errorCode ?? ''}`.trim(),
          null,
        );
        if (failed) realtime.emitMessage(failed);
      } else if (row.status === constants.messageStatus.pending) {
        const sent = await messagesRepo.setOutcome(db, row.id, { status: constants.messageStatus.sent });
        if (sent) realtime.emitMessage(sent);
      }
    },
  };
  carrier.attach(sink);

  return {
    options: opts,
    send,
    sink,

    /** A resent smsId whose message is still pending: make sure its job runs (it may be due already). */
    resume(row: MessageRow) {
      if (row.status === constants.messageStatus.pending) runSoon({ messageId: row.id });
    },

    /** A captcha solved by the account lets it start new conversations again. */
    async captchaSolved(accountId: number) {
      await rateEventsRepo.record(db, `chat-captcha:${accountId}`);
    },

    /** Starts the worker that resumes due jobs (left by a crash, or waiting for a retry). */
    start() {
      stopped = false;
      if (timer) return;
      const tick = () => {
        runSoon({});
        timer = setTimeout(tick, opts.pollMs);
        timer.unref();
      };
      tick();
    },

    /** Stops the worker and waits a little for sends in flight (their leases cover the rest). */
    async stop(graceMs = 3000) {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (inFlight.size) await Promise.race([Promise.allSettled([...inFlight]), sleep(graceMs)]);
    },

    /** Jobs being run by this process (tests wait on it). */
    get busy() {
      return inFlight.size;
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
