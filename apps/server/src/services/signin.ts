import { constants, normalizePhone, type Brand, type Lang } from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { Database, Tx } from '../db';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../lib/errors';
import { randomDigits, safeEqualHex, sha256 } from '../lib/crypto';
import { outboxRepo } from '../repositories/outbox';
import { rateEventsRepo } from '../repositories/rateEvents';
import { signinCodesRepo, type CodeChannel, type CodePurpose } from '../repositories/signin';
import { accountsRepo, AccountStatus, type SignInAddress } from '../repositories/accounts';
import type { SessionService } from './sessions';
import type { MailPort } from '../providers/mail/port';
import type { CarrierPort } from '../providers/carrier/port';

const templates = { en: en.mail, zh: zh.mail } as const;
const fill = (s: string, vars: Record<string, string>) =>
  s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars[k] ?? '');

/** The key codes are filed under: the e-mail, or the full number's digits. */
export const addressKey = (a: SignInAddress): string => ('email' in a ? a.email : `${a.telCode}${a.phone}`);
export const channelOf = (a: SignInAddress): CodeChannel => ('email' in a ? 'email' : 'sms');

/**
 * Turns parsed input into an address, refusing phone numbers that cannot exist (100007). A phone comes
 * out as libphonenumber's split of its E.164 number (contract phone.ts), however it was typed:
 * `+12 125550299` and `+1 2125550299` are the same address, so the same account (issue 9, hole 3).
 */
export function toAddress(input: {
  email?: string | undefined;
  telCode?: string | undefined;
  phone?: string | undefined;
}): SignInAddress {
  if (input.email !== undefined) return { email: input.email };
  const normal = normalizePhone(input.telCode ?? '', input.phone ?? '');
  if (!normal) throw new ApiError(100007, null, 'phone number is not valid for its country code');
  return { telCode: normal.telCode, phone: normal.phone };
}

const hashCode = (address: string, code: string) => sha256(`${address}:${code}`);
const HOUR = 3600_000;
const DAY = 24 * HOUR;

export interface SigninDeps {
  db: Database;
  /** Per-IP limits are multiplied by this (env IP_RATE_LIMIT_FACTOR). */
  ipLimitFactor: number;
  mail: MailPort;
  carrier: CarrierPort;
  dev: boolean;
  log: FastifyBaseLogger;
  sessions: SessionService;
}

/**
 * Sign-in codes, also used to prove a phone or an e-mail (purpose `verify`): 4 digits by phone, 6 by
 * e-mail, valid 10 minutes, dead after 5 wrong tries, resend after 60 s, at most 5 sends per address
 * and 20 per IP an hour. (Not the verification-code product, which receives codes for other apps.)
 */
export function createSigninService({ db, mail, carrier, dev, log, ipLimitFactor, sessions }: SigninDeps) {
  const keysOf = (p: { brand: Brand; purpose: CodePurpose; address: SignInAddress; ip: string }) => ({
    addrKey: `code:${p.brand.id}:${p.purpose}:${addressKey(p.address)}`,
    ipKey: `code-ip:${p.ip}`,
  });
  /** Wrong codes of an address, both purposes (the dev route's `code:%:<address>` lifts it too). */
  const wrongKeyOf = (brand: Brand, address: SignInAddress) =>
    `code:${brand.id}:wrong:${addressKey(address)}`;
  /** Whether the address has used up its wrong codes of the last 24 hours (issue 9, hole 4). */
  const wrongCapReached = async (q: Database['q'], brand: Brand, address: SignInAddress) =>
    (await rateEventsRepo.stats(q, wrongKeyOf(brand, address), DAY)).count >=
    constants.signin.wrongTriesPerAddressPerDay;

  /**
   * Refuses a send that must wait: 100015 with `resendAfter` seconds (the 60 s resend wait, or the
   * hourly limits). Asked before the captcha too, so the client shows the countdown at once rather
   * than after a solved captcha (issue 13, defect 4).
   */
  const assertMaySend = async (p: {
    brand: Brand;
    purpose: CodePurpose;
    address: SignInAddress;
    ip: string;
  }) => {
    // no mail on this deployment (MAIL=none): said before any captcha, nothing stored (issue 18)
    if (mail.name === 'none' && channelOf(p.address) === 'email')
      throw new ApiError(100031, null, 'no mail provider is configured');
    // no code is sent to an address that may not try one today
    if (await wrongCapReached(db.q, p.brand, p.address))
      throw new ApiError(100030, null, 'daily wrong-code cap reached');
    const { addrKey, ipKey } = keysOf(p);
    const [byAddr, byIp] = await Promise.all([
      rateEventsRepo.stats(db.q, addrKey, HOUR),
      rateEventsRepo.stats(db.q, ipKey, HOUR),
    ]);
    const resendMs = constants.signin.resendCountdownS * 1000;
    if (byAddr.lastAgoMs !== null && byAddr.lastAgoMs < resendMs) {
      throw new ApiError(
        100015,
        { resendAfter: Math.ceil((resendMs - byAddr.lastAgoMs) / 1000) },
        'resend too soon',
      );
    }
    if (
      byAddr.count >= constants.signin.sendsPerAddressPerHour ||
      byIp.count >= constants.signin.sendsPerIpPerHour * ipLimitFactor
    ) {
      throw new ApiError(100015, { resendAfter: 3600 }, 'hourly code limit reached');
    }
  };

  const service = {
    assertMaySend,

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
      const { addrKey, ipKey } = keysOf(p);
      await assertMaySend(p);

      const codeLength =
        channel === 'email' ? constants.signin.codeLength.email : constants.signin.codeLength.phone;
      const code = randomDigits(codeLength);
      const vars = { brand: p.brand.name[p.lang], code };
      const t = templates[p.lang];
      const text = fill(
        p.purpose === 'login'
          ? channel === 'email'
            ? t.loginText
            : t.smsLogin
          : channel === 'email'
            ? t.verifyText
            : t.smsVerify,
        vars,
      );
      const subject = fill(p.purpose === 'login' ? t.loginSubject : t.verifySubject, vars);

      await db.tx(async (q) => {
        await rateEventsRepo.record(q, addrKey);
        await rateEventsRepo.record(q, ipKey);
        await signinCodesRepo.insert(q, {
          brand: p.brand.id,
          purpose: p.purpose,
          address: key,
          channel,
          codeHash: hashCode(key, code),
          expiresAt: new Date(Date.now() + constants.signin.codeTtlMs),
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
      return {
        codeLength,
        resendAfter: constants.signin.resendCountdownS,
        expiresIn: constants.signin.codeTtlMs / 1000,
      };
    },

    /**
     * Checks a code. Wrong: 100004 (the try is counted); expired, used, unknown or 5 wrong tries:
     * 100006. Right: the code is spent and `onValid` runs in the same transaction. An address with
     * `codeWrongTriesPerAddressPerDay` wrong codes in the last 24 hours gets 100030 (the wrong try
     * that reaches the cap too) and no code of it is checked, right or wrong, until the window passes.
     * Checks of one address queue on its newest code's row lock, so concurrent guesses cannot overshoot.
     */
    async check<T>(
      p: { brand: Brand; purpose: CodePurpose; address: SignInAddress; code: string },
      onValid: (tx: Tx, row: { accountId: number | null }) => Promise<T>,
    ): Promise<T> {
      const key = addressKey(p.address);
      type Outcome = { ok: true; value: T } | { ok: false; error: 100004 | 100006 | 100030 };
      const outcome = await db.tx(async (q): Promise<Outcome> => {
        const row = await signinCodesRepo.latestForUpdate(q, p.brand.id, p.purpose, key);
        if (await wrongCapReached(q, p.brand, p.address)) return { ok: false, error: 100030 };
        if (
          !row ||
          row.consumedAt ||
          row.expiresAt.getTime() < Date.now() ||
          row.wrongTries >= constants.signin.maxWrongTries
        ) {
          return { ok: false, error: 100006 };
        }
        if (!safeEqualHex(row.codeHash, hashCode(key, p.code))) {
          const tries = await signinCodesRepo.addWrongTry(q, row.id);
          await rateEventsRepo.record(q, wrongKeyOf(p.brand, p.address));
          if (await wrongCapReached(q, p.brand, p.address)) return { ok: false, error: 100030 };
          return { ok: false, error: tries >= constants.signin.maxWrongTries ? 100006 : 100004 };
        }
        if (!(await signinCodesRepo.consume(q, row.id))) return { ok: false, error: 100006 };
        return { ok: true, value: await onValid(q, { accountId: row.accountId }) };
      });
      if (!outcome.ok) throw new ApiError(outcome.error);
      return outcome.value;
    },

    /**
     * Signs in with a code: the account of the address (made on first sign-in) and a new session,
     * which ends the account's other sessions (they hear 100014). Suspended 100008, deleted 200018.
     */
    async login(p: {
      brand: Brand;
      address: SignInAddress;
      code: string;
      meta: { userAgent?: string | undefined; ip?: string | undefined };
    }) {
      const { account, started } = await service.check(
        { brand: p.brand, purpose: 'login', address: p.address, code: p.code },
        async (tx) => {
          const account = await accountsRepo.findOrCreate(tx, p.brand.id, p.address);
          if (account.status === AccountStatus.suspended) throw new ApiError(100008);
          if (account.status === AccountStatus.deleted) throw new ApiError(200018);
          return { account, started: await sessions.start(tx, account.id, p.meta) };
        },
      );
      sessions.announceRevoked(account.id, started.revoked, 'elsewhere');
      return { account, token: started.token };
    },
  };
  return service;
}

export type SigninService = ReturnType<typeof createSigninService>;
