import type { BrandId, Minor, Retcode, SendPayload } from '@numa/contract';
import type { Database } from '../../db';
import { phoneFacts, type PhoneFacts } from '../../lib/sms';
import { rateEventsRepo } from '../../repositories/rateEvents';
import { sendFactsRepo } from '../../repositories/messages';
import type { Pricing } from '../pricing';

export interface RulesOptions {
  /**
   * Abuse guard (decided): an account may start conversations with this many new numbers within the
   * window; the next new number needs a solved captcha (100010). Texting numbers it already talks to
   * is never held up.
   */
  newRecipientLimit: number;
  newRecipientWindowMs: number;
}

export interface Sender {
  accountId: number;
  brand: BrandId;
}

/** A send the rules let through: who, to whom, what it costs. */
export interface SendPlan {
  own: { fullNumber: string; telCode: string; country: string | null };
  dest: PhoneFacts;
  charge: Minor;
  segments: number;
  /** The first message from this own number to the destination (counts against the abuse guard). */
  isNew: boolean;
}

export type RulesVerdict =
  | { ok: true; plan: SendPlan }
  | { ok: false; retcode: Retcode; detail?: string }
  /** The account stored this smsId before (a resend after a reconnect): nothing is checked or stored. */
  | { ok: 'repeat' };

const refuse = (retcode: Retcode, detail?: string): RulesVerdict => ({
  ok: false,
  retcode,
  ...(detail ? { detail } : {}),
});

/** Keys of the abuse guard's rate events. */
export const newRecipientKey = (accountId: number) => `chat-new:${accountId}`;
export const captchaSolvedKey = (accountId: number) => `chat-captcha:${accountId}`;

/**
 * The sending rules of a message, in their order (docs/decisions.md, Chats server): own number
 * (300032), a valid destination that is not the sender (300031), MMS from +1 Canadian numbers (300034)
 * or any +44 number (300035), an unregistered toll-free sender (300030), the abuse guard (100010),
 * a balance of at least the price (400001). A resent smsId is told apart first. (Payload, platform and session are checked by the socket
 * before; the file's type by its bytes when it is stored.) The facts are read in one statement.
 */
export function createSendingRules(deps: { db: Database; pricing: Pricing; options: RulesOptions }) {
  const { db, pricing, options } = deps;

  /** Whether starting a conversation with one more new number needs a captcha first. */
  async function needsCaptcha(accountId: number): Promise<boolean> {
    const window = options.newRecipientWindowMs;
    const solved = await rateEventsRepo.stats(db.q, captchaSolvedKey(accountId), window);
    const since = Math.min(window, solved.lastAgoMs ?? window);
    const fresh = await rateEventsRepo.stats(db.q, newRecipientKey(accountId), since);
    return fresh.count >= options.newRecipientLimit;
  }

  /**
   * SMS rates the rules read last, by currency and destination country: what the checked send
   * statement expects (and verifies in the database: a changed rate only sends it down the full path).
   */
  const smsRates = new Map<string, Minor>();
  const rateKey = (currency: string, country: string | null) => `${currency}:${country ?? '*'}`;

  return {
    needsCaptcha,

    /**
     * The checked send of an ordinary SMS (messagesRepo.sendDurable `checks`): its destination, price
     * and the facts the statement must find, or null when the full rules must run first (an MMS, an
     * invalid or own destination, a rate not seen yet). The statement writes nothing unless the
     * database agrees with every other rule (services/chats/send.ts then runs `check`).
     */
    expect(sender: Sender, p: SendPayload) {
      if (p.msgType !== 'sms') return null;
      const dest = phoneFacts(p.toNumber);
      if (!dest || dest.full === p.fromNumber) return null;
      const currency = pricing.currencyOf(sender.brand);
      const rate = smsRates.get(rateKey(currency, dest.country));
      if (rate === undefined) return null;
      const price = pricing.messageCharge({ msgType: 'sms', text: p.text, rates: { sms: rate, mms: null } });
      if (!price) return null;
      return {
        dest,
        charge: price.charge,
        segments: price.segments,
        checks: { currency, country: dest.country ?? '*', rate },
      };
    },

    async check(sender: Sender, p: SendPayload): Promise<RulesVerdict> {
      const { accountId } = sender;
      const dest = phoneFacts(p.toNumber);
      const facts = await sendFactsRepo.read(db.q, {
        accountId,
        from: p.fromNumber,
        to: dest?.full ?? '',
        currency: pricing.currencyOf(sender.brand),
        country: dest?.country ?? null,
        smsId: p.smsId,
      });
      if (facts.sms !== null)
        smsRates.set(rateKey(pricing.currencyOf(sender.brand), dest?.country ?? null), facts.sms);
      if (facts.sentBefore) return { ok: 'repeat' };
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

      const price = pricing.messageCharge({ msgType: p.msgType, text: p.text, rates: facts });
      if (!price)
        throw new Error(`no ${p.msgType} rate for ${pricing.currencyOf(sender.brand)} ${dest.country}`);
      if (facts.balance <= 0 || facts.balance < price.charge) return refuse(400001);
      return { ok: true, plan: { own, dest, charge: price.charge, segments: price.segments, isNew } };
    },
  };
}

export type SendingRules = ReturnType<typeof createSendingRules>;
