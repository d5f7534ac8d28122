import {
  brands,
  constants,
  formatMoney,
  fromMinor,
  parsePhone,
  type BrandId,
  type Lang,
  type LockedPhone,
  type Minor,
  type SmsItem,
} from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import type { Clock } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { bothLangs, fill, serverTexts } from '../../lib/texts';
import type { Metrics } from '../../metrics';
import type { CarrierPort } from '../../providers/carrier/port';
import type { CodeSupplyPort } from '../../providers/codes/port';
import type { RealtimeHub } from '../../realtime/hub';
import { catalogueRepo } from '../../repositories/catalogue';
import { codesRepo, type CodeSmsRow, type LockRow } from '../../repositories/codes';
import type { Limits } from '../limits';
import type { Pricing } from '../pricing';

/** The pool's supplier name of our own numbers at the carrier (their codes come in through the carrier's inbound side). */
export const carrierPool = 'carrier';

export interface CodesDeps {
  db: Database;
  jobs: Jobs;
  pricing: Pricing;
  clock: Clock;
  realtime: RealtimeHub;
  supply: CodeSupplyPort;
  carrier: CarrierPort;
  /** The per-account budget of locks (services/limits.ts), spent before any database work. */
  limits: Pick<Limits, 'codeLock'>;
  log: FastifyBaseLogger;
  metrics?: Metrics;
}

/** A code SMS as a supplier or the carrier brings it. */
export interface InboundCodeSms {
  /** Who brought it (the supplier's name, or 'carrier'). */
  source: string;
  /** Its id at the source: the same id twice is one SMS. */
  messageId: string;
  /** The number it was sent to (digits). */
  phone: string;
  /** The app it is for, when the source knows; otherwise read from the text. */
  app?: string | null;
  sender?: string;
  text: string;
}

export type ReceiveResult =
  | { status: 'charged' | 'unpaid'; smsId: string; accountId: number; charge: Minor }
  | { status: 'duplicate'; smsId: string }
  | { status: 'unmatched' };

/** The verification codes' texts in a language (the contract's locale files). */
export const codeTexts = (lang: Lang) => serverTexts[lang].codes;

/** 400000: the account holds constants.codes.maxLiveLocks live locks already (spec 001 §8: an error state with the message). */
export const capReached = () =>
  new ApiError(
    400000,
    null,
    'too many numbers locked at once',
    bothLangs((t) => t.codes.capReached, { n: constants.codes.maxLiveLocks }),
  );

/** 100015 with `retryAfter` (seconds): the account took its budget of locks (services/limits.ts). */
export function tooManyLocks(retryAfterMs: number) {
  const s = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const wait = (l: Lang) => {
    const t = codeTexts(l);
    if (s < 60) return s === 1 ? t.second : fill(t.seconds, { n: s });
    const m = Math.ceil(s / 60);
    return m === 1 ? t.minute : fill(t.minutes, { n: m });
  };
  return new ApiError(100015, { retryAfter: s }, 'too many locks from this account', {
    en: fill(codeTexts('en').tooManyLocks, { wait: wait('en') }),
    zh: fill(codeTexts('zh').tooManyLocks, { wait: wait('zh') }),
  });
}

export function formatPhone(phone: string): string {
  return parsePhone(phone)?.formatInternational() ?? `+${phone}`;
}

/**
 * What every part of the codes service shares: its dependencies, which suppliers' numbers are
 * offered and may be kept or send, the catalogue checks and prices, the SMS and lock views, and the
 * end of a lock (told to its supplier).
 */
export function codesContext(deps: CodesDeps) {
  const { db, pricing, clock, supply, carrier, log } = deps;
  /** Pool rows of these suppliers are offered: the active supplier's (when it keeps a pool) and our own carrier numbers. */
  const poolSuppliers = supply.handsOutNumbers ? [carrierPool] : [supply.name, carrierPool];
  /** A number of the pool can send through the carrier: ours at the carrier, or the simulator's beside the carrier simulator. */
  const canSendFrom = (supplier: string | undefined) =>
    supplier === carrierPool || (supplier === 'simulator' && carrier.name === 'simulator');
  /** A lock or pool row of this supplier name is the supply port's (a failover set serves several names). */
  const ours = (supplier: string) => supply.serves?.(supplier) ?? supplier === supply.name;
  /** Numbers a real supplier hands out per activation are not ours to keep for months. */
  const keepableSupplier = (supplier: string) => !(ours(supplier) && supply.handsOutNumbers);
  const now = () => new Date(clock.now());

  async function checkAppAndCountry(app: string, country: string, lang: Lang) {
    const [apps, countries] = await Promise.all([
      catalogueRepo.apps(db.q, lang),
      catalogueRepo.countries(db.q),
    ]);
    const a = apps.find((x) => x.app === app);
    const c = countries.find((x) => x.code === country);
    if (!a) throw new ApiError(100001, null, `app ${app} is not offered`);
    if (!c) throw new ApiError(100001, null, `country ${country} is not offered`);
    return { appName: a.name, telCode: c.telCode };
  }

  async function fees(brand: BrandId, app: string, country: string) {
    const [fee, subRent] = await Promise.all([
      pricing.codeFee(brand, app, country),
      pricing.rate(brand, 'code_month', { country, variant: app }),
    ]);
    return { fee, subRent };
  }

  const smsItem = (row: CodeSmsRow, lang: Lang): SmsItem => {
    const withheld = row.ledgerId === null;
    return {
      text: withheld ? codeTexts(lang).withheld : row.text,
      code: withheld ? '' : row.code,
      date: row.receivedAt.getTime(),
      charge: fromMinor(row.charge),
      smsId: row.smsId,
    };
  };

  /** Ends a lock and tells the supplier (a lock that ended before is left alone). */
  async function endLock(lockId: number, reason: string, onlyExpired = false) {
    const ended = await codesRepo.endLock(db.q, { id: lockId, reason, now: now(), onlyExpired });
    if (ended) deps.metrics?.codeLockEnded(reason);
    if (ended && ours(ended.supplier)) {
      const codes = await codesRepo.smsOfLock(db.q, ended.id);
      // given back for another number with no code: the app refused it (a supplier may ban it)
      const outcome = codes.length ? 'done' : reason === 'replaced' ? 'ban' : 'cancel';
      await supply
        .finished({ ref: ended.supplierRef, outcome, supplier: ended.supplier })
        .catch((err: unknown) => {
          log.warn({ err, lockId }, 'telling the code supplier a lock ended failed');
        });
    }
    return ended;
  }

  async function lockedPhone(
    row: LockRow,
    name: string,
    telCode: string,
    subRent: Minor | null,
    lang: Lang,
  ): Promise<LockedPhone> {
    const brand = brands[row.brand as BrandId];
    const money = (m: Minor) => formatMoney(brand, fromMinor(m), lang);
    const [holder, pool] = await Promise.all([
      codesRepo.numberHolder(db.q, row.phone, row.app),
      codesRepo.poolNumber(db.q, row.phone),
    ]);
    const subStatus = holder && holder.accountId === row.accountId && holder.subStatus === 1 ? 1 : 0;
    return {
      phone: row.phone,
      formatPhone: formatPhone(row.phone),
      app: row.app,
      telCode,
      telCodeList: [telCode],
      tip: fill(codeTexts(lang).tip, { app: name, fee: money(row.fee) }),
      subTip: subRent !== null ? fill(codeTexts(lang).subTip, { rent: money(subRent) }) : '',
      subRent: fromMinor(subRent ?? (0 as Minor)),
      codeRate: fromMinor(row.fee),
      canSub: subRent !== null ? 1 : 0,
      subStatus,
      canSendCodeSms: canSendFrom(pool?.supplier),
      expireTime: row.expiresAt.getTime(),
    };
  }

  return {
    deps,
    poolSuppliers,
    canSendFrom,
    ours,
    keepableSupplier,
    now,
    checkAppAndCountry,
    fees,
    smsItem,
    endLock,
    lockedPhone,
  };
}

export type CodesContext = ReturnType<typeof codesContext>;
