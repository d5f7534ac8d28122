import { randomBytes } from 'node:crypto';
import { constants, negMinor, type BrandId, type Minor } from '@numa/contract';
import type { JobPayloads } from '../../jobs/types';
import { DAY_MS } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import { phoneFacts } from '../../lib/sms';
import { CarrierError } from '../../providers/carrier/port';
import { codesRepo } from '../../repositories/codes';
import { ledger } from '../../repositories/ledger';
import type { CodesContext } from './context';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** A text sent from a verification number (sendCodeSms), charged already: hand it to the carrier. */
    'codes.send': {
      smsId: string;
      accountId: number;
      from: string;
      to: string;
      text: string;
      charge: number;
      segments: number;
      /** When it was stored (epoch ms): a lookup at the carrier looks no further back (older jobs: a day). */
      at?: number;
    };
  }
}

/**
 * Sending from a verification number (sendCodeSms): charged as an SMS with its bill, handed to the
 * carrier by a job that refunds the charge when the carrier refuses for good.
 */
export function createSending(ctx: CodesContext) {
  const { db, jobs, pricing, clock, carrier, log } = ctx.deps;
  const { now, canSendFrom } = ctx;

  /** A sent text's charge back (bill type 8, once per text). */
  async function refundSend(m: JobPayloads['codes.send'], reason: string) {
    await db.tx((tx) =>
      ledger.apply(tx, {
        accountId: m.accountId,
        type: constants.billTypes.refund,
        charge: m.charge as Minor,
        options: {
          direction: 'out',
          from: m.from,
          to: m.to,
          type: 'sms',
          count: m.segments,
          successCount: 0,
        },
        idempotencyKey: idemKey('code-send-refund', m.smsId),
      }),
    );
    log.warn({ smsId: m.smsId, reason }, 'a text from a verification number was not sent; refunded');
  }
  /**
   * Whether the carrier has this text already: asked before a try that may follow a hand-over of
   * unknown outcome (an earlier try's process died, or its call failed or timed out), so the text is
   * not sent twice nor refunded once sent (issue 18 §7). The carrier that cannot tell throws.
   */
  async function atCarrier(m: JobPayloads['codes.send']): Promise<boolean> {
    const found = await carrier.lookupMessage({
      from: m.from,
      to: m.to,
      text: m.text,
      media: [],
      idempotencyKey: m.smsId,
      since: new Date(m.at ?? clock.now() - DAY_MS),
    });
    if (found.length)
      log.info({ smsId: m.smsId }, 'a text from a verification number is at the carrier already');
    return found.length > 0;
  }
  jobs.define(
    'codes.send',
    async (m, ctx) => {
      if (ctx.attempt > 1 && (await atCarrier(m))) return;
      try {
        await carrier.sendSms({ from: m.from, to: m.to, text: m.text, idempotencyKey: m.smsId });
      } catch (err) {
        if (err instanceof CarrierError && err.permanent) return refundSend(m, err.message);
        throw err;
      }
    },
    {
      maxAttempts: 3,
      onFailed: async (m, err) => {
        if (!(await atCarrier(m))) await refundSend(m, err.message);
      },
    },
  );

  /**
   * sendCodeSms: a text from a verification number the account holds (a live lock, or a number kept
   * or still valid) through the carrier, charged as an SMS to its destination with its bill (type 2),
   * in the transaction that also writes the carrier job; the job refunds the charge if the carrier
   * refuses for good.
   */
  async function send(p: {
    accountId: number;
    brand: BrandId;
    from: string;
    to: string;
    app: string;
    text: string;
  }): Promise<{ smsId: string; date: number }> {
    const t = now();
    const [lock, holder, pool] = await Promise.all([
      codesRepo.liveLock(db.q, p.from, p.app),
      codesRepo.numberHolder(db.q, p.from, p.app),
      codesRepo.poolNumber(db.q, p.from),
    ]);
    const locked = !!lock && lock.accountId === p.accountId && lock.expiresAt > t;
    const kept =
      !!holder && holder.accountId === p.accountId && (holder.subStatus === 1 || holder.validUntil > t);
    if (!locked && !kept) throw new ApiError(100003, null, 'not a verification number of this account');
    if (!canSendFrom(pool?.supplier))
      throw new ApiError(300032, null, 'this verification number cannot send messages');
    const dest = phoneFacts(p.to);
    if (!dest || dest.full === p.from) throw new ApiError(300031, null, 'not a number messages can go to');
    const sms = await pricing.rate(p.brand, 'sms', { country: dest.country ?? '*' });
    const priced = pricing.messageCharge({ msgType: 'sms', text: p.text, rates: { sms, mms: null } });
    if (!priced) throw new ApiError(300031, null, 'messages to this country are not offered');
    const smsId = `code-out:${randomBytes(9).toString('base64url')}`;
    const job = await db.tx(async (tx) => {
      await ledger.apply(tx, {
        accountId: p.accountId,
        type: constants.billTypes.sms,
        charge: negMinor(priced.charge),
        options: {
          direction: 'out',
          from: p.from,
          to: dest.full,
          type: 'sms',
          count: priced.segments,
          countryCode: dest.telCode,
          app: p.app,
        },
        idempotencyKey: idemKey('code-send', p.accountId, smsId),
      });
      return jobs.enqueueClaimed(
        tx,
        'codes.send',
        {
          smsId,
          accountId: p.accountId,
          from: p.from,
          to: dest.full,
          text: p.text,
          charge: priced.charge,
          segments: priced.segments,
          at: t.getTime(),
        },
        { dedupeKey: idemKey('code-send', p.accountId, smsId) },
      );
    });
    jobs.run(job);
    return { smsId, date: t.getTime() };
  }

  return { send };
}
