import { constants, negMinor, type Minor, type Retcode, type SendPayload } from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import type { JobContext, Jobs } from '../../jobs';
import { isApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import {
  CarrierError,
  type CarrierPort,
  type OutboundMessage,
  type StatusUpdate,
} from '../../providers/carrier/port';
import type { RealtimeHub } from '../../realtime/hub';
import { ledger, ledgerError } from '../../repositories/ledger';
import {
  messagesRepo,
  sendDurable,
  type DurableOutcome,
  type DurableSend,
  type MessageRow,
} from '../../repositories/messages';
import { mediaIdFromUrl, type MediaService } from '../media';
import { isUniqueViolation } from '../verify';
import { newRecipientKey, type Sender, type SendingRules, type SendPlan } from './rules';

export interface SendOptions {
  /** Tries of a send on transient carrier errors before it fails. */
  maxAttempts: number;
  /** Delay before the second try; doubles each time. */
  retryDelayMs: number;
  /** A carrier call that takes longer counts as a transient failure. */
  carrierTimeoutMs: number;
}

/** The carrier recorded on both copies of a message between two numbers of the platform (no carrier carried it). */
export const platformCarrier = 'platform';

export type SendResult =
  /** Refused before anything was stored or charged. */
  | { kind: 'refused'; retcode: Retcode; detail?: string }
  /** Stored, charged and queued for the carrier; the confirmation follows on the account's sockets. */
  | { kind: 'stored'; row: MessageRow }
  /** This smsId was stored before (a resend after a reconnect): nothing new is stored or charged. */
  | { kind: 'repeat'; row: MessageRow };

declare module '../../jobs/types' {
  interface JobPayloads {
    /** Hands a stored outgoing message to the carrier (born claimed by the sending server). */
    'carrier.send': { messageId: number };
  }
}

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
 * The send path: a message is stored, charged (its bill, in the same transaction, idempotently by its
 * smsId) and its carrier job born claimed by this server before the carrier sees it; the job runs
 * right after the commit. Transient carrier errors are retried by the jobs module; a permanent one,
 * or the last failed try, fails the message and refunds its charge once. Late status reports land here too.
 */
export function createSendPath(deps: {
  db: Database;
  jobs: Jobs;
  carrier: CarrierPort;
  media: MediaService;
  realtime: RealtimeHub;
  rules: SendingRules;
  log: FastifyBaseLogger;
  options: SendOptions;
}) {
  const { db, jobs, carrier, media, realtime, rules, log, options } = deps;
  /** Rows of fresh sends whose born-claimed job is about to run here (saves reading them back). */
  const fresh = new Map<number, MessageRow>();

  const refused = (retcode: Retcode, detail?: string): SendResult => ({
    kind: 'refused',
    retcode,
    ...(detail ? { detail } : {}),
  });

  async function send(sender: Sender, p: SendPayload): Promise<SendResult> {
    const { accountId } = sender;
    // an ordinary SMS goes in one round trip: the statement checks the rules' facts itself and writes
    // nothing when any is not the ordinary one; the full rules below then say why (or it was a race)
    const expected = rules.expect(sender, p);
    if (expected) {
      const { dest, charge, segments, checks } = expected;
      const plan: SendPlan = {
        own: { fullNumber: p.fromNumber, telCode: '', country: null },
        dest,
        charge,
        segments,
        isNew: false,
      };
      let outcome: DurableOutcome = { written: false };
      try {
        outcome = await sendDurable(db.q, { ...durableOf(sender, p, plan, ''), checks });
      } catch (err) {
        // a twin committed first, or the balance fell short meanwhile: the full path tells
        const e = ledgerError(err, accountId);
        if (!isUniqueViolation(err) && !isApiError(e)) throw e;
      }
      if (outcome.written) return stored(accountId, charge, outcome);
    }

    const verdict = await rules.check(sender, p);
    if (verdict.ok === 'repeat') {
      const existing = await messagesRepo.bySmsId(db.q, accountId, p.smsId);
      if (existing) return { kind: 'repeat', row: existing };
      throw new Error(`message ${p.smsId} of account ${accountId} vanished`);
    }
    if (!verdict.ok) return refused(verdict.retcode, verdict.detail);
    const { charge } = verdict.plan;
    const durable = (mediaUrl: string) => durableOf(sender, p, verdict.plan, mediaUrl);

    let outcome: DurableOutcome;
    try {
      if (p.msgType === 'mms') {
        // the file is stored (and granted to the recipient on the platform) in the same transaction
        outcome = await db.tx(async (tx) => {
          const bytes = p.fileBuffer instanceof Uint8Array ? p.fileBuffer : new Uint8Array(p.fileBuffer);
          const saved = await media.save({
            accountId,
            kind: 'mms',
            bytes,
            allowed: constants.mmsMimeTypes,
            maxBytes: constants.mmsMaxBytes,
            fileName: p.fileName,
            q: tx,
          });
          const o = await sendDurable(tx, durable(saved.url));
          const id = mediaIdFromUrl(saved.url);
          if (o.written && o.received && id) await media.grant(tx, id, o.received.accountId);
          return o;
        });
      } else {
        // one statement, one round trip: its own transaction
        outcome = await sendDurable(db.q, durable(''));
      }
    } catch (err) {
      const e = ledgerError(err, accountId);
      if (isApiError(e)) return refused(e.retcode, e.detail);
      if (isUniqueViolation(err)) {
        // a twin of this send (same smsId) committed first
        const twin = await messagesRepo.bySmsId(db.q, accountId, p.smsId);
        if (twin) return { kind: 'repeat', row: twin };
      }
      throw e;
    }
    if (!outcome.written) {
      // the bill was not written: a twin (same smsId) committed first, or the balance fell short meanwhile
      const twin = await messagesRepo.bySmsId(db.q, accountId, p.smsId);
      if (twin) return { kind: 'repeat', row: twin };
      return refused(400001);
    }
    return stored(accountId, charge, outcome);
  }

  /** After the commit: the balance event, B's message and A's confirmation, the carrier job. */
  function stored(accountId: number, charge: Minor, outcome: DurableOutcome & { written: true }): SendResult {
    if (outcome.received) {
      // delivered on the platform: B hears it first, and A's confirmation ('sent') follows
      realtime.emitMessage(outcome.received);
      realtime.emitMessage(outcome.sent);
    }
    // the bill is the statement's own (not ledger.apply's), so its balance event is announced here,
    // with the balance the statement returned; after the pushes, as its listeners start database work
    if (charge > 0) db.balancesCommitted([accountId], new Map([[accountId, outcome.balance]]));
    db.billsWritten([outcome.sent.type === 'mms' ? constants.billTypes.mms : constants.billTypes.sms]);
    if (outcome.job) {
      fresh.set(outcome.sent.id, outcome.sent);
      jobs.run(outcome.job);
    }
    return { kind: 'stored', row: outcome.sent };
  }

  /** The durable work of a send the rules let through (or expect to). */
  function durableOf(sender: Sender, p: SendPayload, plan: SendPlan, mediaUrl: string): DurableSend {
    const { accountId } = sender;
    const { own, dest, charge, segments, isNew } = plan;
    return {
      bill: {
        accountId,
        type: p.msgType === 'sms' ? constants.billTypes.sms : constants.billTypes.mms,
        charge: negMinor(charge),
        options: {
          direction: 'out',
          from: own.fullNumber,
          to: dest.full,
          type: p.msgType,
          count: segments,
          countryCode: dest.telCode,
        },
        idempotencyKey: idemKey('msg', accountId, p.smsId),
      },
      message: {
        accountId,
        ownFullNumber: own.fullNumber,
        ownTelCode: own.telCode,
        otherFullNumber: dest.full,
        otherTelCode: dest.telCode,
        direction: 'out',
        type: p.msgType,
        text: p.text ?? '',
        media: mediaUrl,
        smsId: p.smsId,
        charge,
        segments,
        carrier: carrier.name,
      },
      rateEventKey: isNew ? newRecipientKey(accountId) : null,
      // born claimed by this server: it runs right after the commit, and another server takes it over
      // only if this one dies (its lease is not renewed)
      job: jobs.bornClaimed('carrier.send'),
      platformCarrier,
    };
  }

  /** Fails a message (a status it does not have yet) and refunds its charge once; pushes the change. */
  async function failMessage(row: MessageRow, retcode: Retcode, reason: string): Promise<void> {
    const failed = await db.tx(async (tx) => {
      const updated = await messagesRepo.setOutcome(tx, row.id, {
        status: constants.messageStatus.failed,
        retcode,
        retmsg: reason.slice(0, 300),
      });
      if (!updated) return null;
      if (row.charge > 0) {
        await ledger.apply(tx, {
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
          idempotencyKey: idemKey('msg-refund', row.id),
        });
      }
      return updated;
    });
    if (failed) realtime.emitMessage(failed);
  }

  /** What the carrier is handed for a message: its text and its media with their types. */
  async function outboundOf(row: MessageRow): Promise<OutboundMessage> {
    const ids = row.media
      .split(',')
      .map((u) => mediaIdFromUrl(u.trim()))
      .filter((x): x is string => !!x);
    const types = ids.length ? await media.types(ids) : new Map<string, string>();
    return {
      from: row.ownFullNumber,
      to: row.otherFullNumber,
      text: row.text,
      media: ids.map((id) => ({ id, mime: types.get(id) ?? 'application/octet-stream' })),
      // the request key of every try of this message
      idempotencyKey: `msg-${row.id}`,
    };
  }

  /**
   * A pending message an earlier try may have handed over (that try's process died after the
   * carrier's acceptance and before our record of it, or the call timed out): the carrier is asked
   * first. When it has the message (a record no other message of ours holds), its outcome is recorded
   * as the carrier has it and true comes back: it is not handed over again. False: the carrier does
   * not have it. A carrier that cannot tell throws, and nothing is sent until it can.
   */
  async function reconciled(row: MessageRow, m: OutboundMessage): Promise<boolean> {
    const records = await withTimeout(
      carrier.lookupMessage({ ...m, since: new Date(row.date) }),
      options.carrierTimeoutMs,
    );
    if (!records.length) return false;
    const carrierId = await messagesRepo.adoptCarrierId(
      db.q,
      row.id,
      records.map((r) => r.id),
    );
    const record = carrierId && records.find((r) => r.id === carrierId);
    if (!record) return false;
    log.info(
      { messageId: row.id, carrierId, failed: !!record.failed },
      'message found at the carrier after a hand-over of unknown outcome; not handed over again',
    );
    if (record.failed) {
      await failMessage(row, record.failed.retcode ?? 300036, record.failed.reason);
      return true;
    }
    const sent = await messagesRepo.setOutcome(db.q, row.id, {
      status: constants.messageStatus.sent,
      carrier: carrier.name,
      carrierId,
    });
    if (sent) realtime.emitMessage(sent);
    return true;
  }

  /**
   * The carrier job: hands a pending message to the carrier once. The first try (the job born claimed
   * by the send) hands it over at once, asking nothing and writing nothing before the carrier call. Any
   * later try may follow one whose outcome is unknown (its process died while holding the job, or the
   * call failed or timed out after the carrier may have taken it), so it asks the carrier first.
   */
  async function handOver({ messageId }: { messageId: number }, ctx: JobContext): Promise<void> {
    const known = fresh.get(messageId);
    fresh.delete(messageId);
    const row = known ?? (await messagesRepo.byId(db.q, messageId));
    if (!row || row.status !== constants.messageStatus.pending) return;
    const outbound = await outboundOf(row);
    if (ctx.attempt > 1 && (await reconciled(row, outbound))) return;
    let accepted: { id: string };
    try {
      accepted = await withTimeout(carrier.sendMessage(outbound), options.carrierTimeoutMs);
    } catch (err) {
      if (err instanceof CarrierError && err.permanent) {
        log.warn({ err, messageId: row.id }, 'message refused by the carrier');
        return failMessage(row, err.retcode ?? 300036, err.message);
      }
      throw err; // transient: the jobs module tries again, then calls onFailed
    }
    const sent = await messagesRepo.setOutcome(db.q, row.id, {
      status: constants.messageStatus.sent,
      carrier: carrier.name,
      carrierId: accepted.id,
    });
    if (sent) realtime.emitMessage(sent);
  }

  jobs.define('carrier.send', handOver, {
    maxAttempts: options.maxAttempts,
    backoffMs: (attempt) => options.retryDelayMs * 2 ** (attempt - 1),
    // a try may ask the carrier first, then hand over: two carrier calls
    timeoutMs: 2 * options.carrierTimeoutMs + 10_000,
    async prepare(payloads) {
      const rows = await messagesRepo.byIds(
        db.q,
        payloads.map((p) => p.messageId),
      );
      for (const row of rows) fresh.set(row.id, row);
    },
    async onFailed({ messageId }, err) {
      fresh.delete(messageId);
      const row = await messagesRepo.byId(db.q, messageId);
      if (!row || row.status !== constants.messageStatus.pending) return;
      // the last try's outcome is unknown (it failed or timed out after the carrier may have taken the
      // message, or its process died): a message the carrier has is not failed and refunded
      if (await reconciled(row, await outboundOf(row))) return;
      log.warn({ err, messageId }, 'message failed');
      await failMessage(row, (err instanceof CarrierError && err.retcode) || 300036, err.message);
    },
  });

  return {
    send,

    /** A resent smsId whose message is still pending: run its job now if it waits (a retry, or one left by a crash). */
    async resume(row: MessageRow): Promise<void> {
      if (row.status === constants.messageStatus.pending) await jobs.runByKey(idemKey('carrier', row.id));
    },

    /** A delivery report: a late failure fails a sent message and refunds it; 'sent'/'delivered' confirm a pending one. */
    async status(u: StatusUpdate): Promise<void> {
      const row = await messagesRepo.byCarrierId(db.q, u.carrierId);
      if (!row) return;
      if (u.status === 'failed') {
        await failMessage(row, u.retcode ?? 300036, u.reason ?? `carrier error ${u.errorCode ?? ''}`.trim());
      } else if (u.status === 'delivered') {
        // the delivery report: recorded once (a pending message becomes sent with it), pushed to the
        // sender's sockets (the chat's "Delivered") and to its webhooks (message.status)
        const delivered = await messagesRepo.setDelivered(db.q, row.id, Date.now());
        if (delivered) realtime.emitMessage(delivered);
      } else if (row.status === constants.messageStatus.pending) {
        const sent = await messagesRepo.setOutcome(db.q, row.id, { status: constants.messageStatus.sent });
        if (sent) realtime.emitMessage(sent);
      }
    },
  };
}
