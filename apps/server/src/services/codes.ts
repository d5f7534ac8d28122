import { isValidPhoneNumber } from 'libphonenumber-js';
import { constants, type Brand, type Lang } from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { Database, Queryable } from '../db';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../lib/errors';
import { randomDigits, safeEqualHex, sha256 } from '../lib/crypto';
import { codesRepo, outboxRepo, rateEventsRepo, type CodeChannel, type CodePurpose } from '../repositories/codes';
import type { SignInAddress } from '../repositories/accounts';
import type { MailPort } from '../providers/mail/port';
import type { CarrierPort } from '../providers/carrier/port';

const templates = { en: en.mail, zh: zh.mail } as const;
const fill = (s: string, vars: Record<string, string>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars[k] ?? '');

/** The key codes are filed under: the e-mail, or the full number's digits. */
export const addressKey = (a: SignInAddress): string => ('email' in a ? a.email : `${a.telCode}${a.phone}`);
export const channelOf = (a: SignInAddress): CodeChannel => ('email' in a ? 'email' : 'sms');

/** Turns parsed input into an address, refusing phone numbers that cannot exist. */
export function toAddress(input: { email?: string | undefined; telCode?: string | undefined; phone?: string | undefined }): SignInAddress {
  if (input.email !== undefined) return { email: input.email };
  const telCode = input.telCode!;
  const phone = input.phone!.replace(/^0+/, '');
  if (!isValidPhoneNumber(`+${telCode}${phone}`)) throw new ApiError(100007, null, 'phone number is not valid for its country code');
  return { telCode, phone };
}

const hashCode = (address: string, code: string) => sha256(`${address}:${code}`);
const HOUR = 3600_000;

export interface CodeDeps {
  db: Database;
  /** Per-IP limits are multiplied by this (env IP_RATE_LIMIT_FACTOR). */
  ipLimitFactor: number;
  mail: MailPort;
  carrier: CarrierPort;
  dev: boolean;
  log: FastifyBaseLogger;
}

/**
 * Sign-in and verification codes: 4 digits by phone, 6 by e-mail, valid 10 minutes, dead after 5 wrong
 * tries, resend after 60 s, at most 5 sends per address and 20 per IP an hour.
 */
export function createCodeService({ db, mail, carrier, dev, log, ipLimitFactor }: CodeDeps) {
  return {
    async send(p: {
      brand: Brand;
      lang: Lang;
      purpose: CodePurpose;
      address: SignInAddress;
      ip: string;
      accountId?: number;
    }): Promise<{ codeLength: 4 | 6; resendAfter: number; expiresIn: number }> {
      const key = addressKey(p.address);
      const channel = channelOf(p.address);
      const addrKey = `code:${p.brand.id}:${p.purpose}:${key}`;
      const ipKey = `code-ip:${p.ip}`;
      const [byAddr, byIp] = await Promise.all([
        rateEventsRepo.stats(db, addrKey, HOUR),
        rateEventsRepo.stats(db, ipKey, HOUR),
      ]);
      const resendMs = constants.resendCountdownS * 1000;
      if (byAddr.lastAgoMs !== null && byAddr.lastAgoMs < resendMs) {
        throw new ApiError(100015, { resendAfter: Math.ceil((resendMs - byAddr.lastAgoMs) / 1000) }, 'resend too soon');
      }
      if (byAddr.count >= constants.codeSendsPerAddressPerHour || byIp.count >= constants.codeSendsPerIpPerHour * ipLimitFactor) {
        throw new ApiError(100015, { resendAfter: 3600 }, 'hourly code limit reached');
      }

      const codeLength = channel === 'email' ? constants.codeLength.email : constants.codeLength.phone;
      const code = randomDigits(codeLength);
      const vars = { brand: p.brand.name[p.lang], code };
      const t = templates[p.lang];
      const text = fill(p.purpose === 'login' ? (channel === 'email' ? t.loginText : t.smsLogin) : channel === 'email' ? t.verifyText : t.smsVerify, vars);
      const subject = fill(p.purpose === 'login' ? t.loginSubject : t.verifySubject, vars);

      await db.tx(async (q) => {
        await rateEventsRepo.record(q, addrKey);
        await rateEventsRepo.record(q, ipKey);
        await codesRepo.insert(q, {
          brand: p.brand.id,
          purpose: p.purpose,
          address: key,
          channel,
          codeHash: hashCode(key, code),
          expiresAt: new Date(Date.now() + constants.codeTtlMs),
          accountId: p.accountId ?? null,
          ip: p.ip,
        });
        if (dev) await outboxRepo.add(q, { channel, to: key, subject, text, code });
      });

      try {
        if (channel === 'email') await mail.send({ to: key, subject, text });
        else await carrier.sendSms({ from: null, to: key, text });
      } catch (err) {
        log.warn({ err, channel }, 'code delivery failed');
        throw new ApiError(100011, null, (err as Error).message);
      }
      return { codeLength, resendAfter: constants.resendCountdownS, expiresIn: constants.codeTtlMs / 1000 };
    },

    /**
     * Checks a code. Wrong: 100004 (the try is counted); expired, used, unknown or 5 wrong tries:
     * 100006. Right: the code is spent and `onValid` runs in the same transaction.
     */
    async check<T>(
      p: { brand: Brand; purpose: CodePurpose; address: SignInAddress; code: string },
      onValid: (q: Queryable, row: { accountId: number | null }) => Promise<T>,
    ): Promise<T> {
      const key = addressKey(p.address);
      type Outcome = { ok: true; value: T } | { ok: false; error: 100004 | 100006 };
      const outcome = await db.tx(async (q): Promise<Outcome> => {
        const row = await codesRepo.latest(q, p.brand.id, p.purpose, key, true);
        if (!row || row.consumedAt || row.expiresAt.getTime() < Date.now() || row.wrongTries >= constants.codeMaxWrongTries) {
          return { ok: false, error: 100006 };
        }
        if (!safeEqualHex(row.codeHash, hashCode(key, p.code))) {
          const tries = await codesRepo.addWrongTry(q, row.id);
          return { ok: false, error: tries >= constants.codeMaxWrongTries ? 100006 : 100004 };
        }
        if (!(await codesRepo.consume(q, row.id))) return { ok: false, error: 100006 };
        return { ok: true, value: await onValid(q, { accountId: row.accountId }) };
      });
      if (!outcome.ok) throw new ApiError(outcome.error);
      return outcome.value;
    },
  };
}

export type CodeService = ReturnType<typeof createCodeService>;
