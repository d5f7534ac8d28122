import { randomBytes } from 'node:crypto';
import {
  brands,
  constants,
  formatMoney,
  fromMinor,
  negMinor,
  parsePhone,
  type BrandId,
  type Lang,
  type LockedPhone,
  type Minor,
  type PhoneOption,
  type SmsItem,
} from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db';
import type { Jobs } from '../../jobs';
import type { JobPayloads } from '../../jobs/types';
import type { Clock } from '../../lib/clock';
import { ApiError, isApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import { CarrierError, type CarrierPort, type InboundMessage } from '../../providers/carrier/port';
import { CodeSupplyError, type CodeSupplyPort } from '../../providers/codes/port';
import type { RealtimeHub } from '../../realtime/hub';
import { accountsRepo } from '../../repositories/accounts';
import { catalogueRepo } from '../../repositories/catalogue';
import { codesRepo, type CodeSmsRow, type LockRow } from '../../repositories/codes';
import { ledger } from '../../repositories/ledger';
import { phoneFacts } from '../../lib/sms';
import { nextMonthIso } from '../numbers';
import { assertProfileReady, profileStatusOf } from '../profile';
import type { Pricing } from '../pricing';
import { detectApp, extractCode } from './parse';

export { detectApp, extractCode } from './parse';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** A lock's window ended: free the number (if no one ended the lock earlier). */
    'codes.expire': { lockId: number };
    /** The simulator's app sends its code to a locked number. */
    'codes.simSend': { lockId: number; sender: string; text: string };
    /** A kept verification number's month is up (due, epoch ms): charge the next one, or let it lapse. */
    'codes.renew': { phone: string; app: string; accountId: number; due: number };
    /** A real supplier is asked what a live lock's activation received (the n-th time). */
    'codes.supplierPoll': { lockId: number; n: number };
    /** A text sent from a verification number (sendCodeSms), charged already: hand it to the carrier. */
    'codes.send': {
      smsId: string;
      accountId: number;
      from: string;
      to: string;
      text: string;
      charge: number;
      segments: number;
    };
  }
}

const dayMs = 86_400_000;
/** The pool's supplier name of our own numbers at the carrier (their codes come in through the carrier's inbound side). */
export const carrierPool = 'carrier';

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

const texts = {
  en: {
    tip: (app: string, fee: string) =>
      `Use this number in ${app} and ask for the code. You pay ${fee} only when a code arrives.`,
    subTip: (rent: string) => `Keep this number for ${rent} a month to receive codes on it again.`,
    ownTip: (until: string) => `Yours until ${until}`,
    withheld: 'A code arrived, but the balance could not pay for it. Top up and receive again.',
  },
  zh: {
    tip: (app: string, fee: string) => `在 ${app} 中使用此号码并获取验证码。收到验证码才扣费 ${fee}。`,
    subTip: (rent: string) => `每月 ${rent} 保留此号码，以后可再次接收验证码。`,
    ownTip: (until: string) => `有效期至 ${until}`,
    withheld: '验证码已到达，但余额不足以支付。请充值后重新接收。',
  },
} as const;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** A UTC month `YYYY-MM` as [from, to). */
function monthRange(ym: string): { from: Date; to: Date } {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}

const subHints = {
  en: {
    done: (until: string) => `Subscribed. The number is yours; the next month is charged on ${until}.`,
    already: 'This number is already subscribed.',
  },
  zh: {
    done: (until: string) => `订阅成功。号码归您所有，下次扣费日期：${until}。`,
    already: '此号码已订阅。',
  },
} as const;

export function formatPhone(phone: string): string {
  return parsePhone(phone)?.formatInternational() ?? `+${phone}`;
}

/**
 * Verification codes (issue 12; spec 001 §2, §4 Receive-code flow, §7): a number is locked for an
 * app for the polling window, a code SMS on it is stored and charged once in one transaction with its
 * bill (bill type 6), nothing is charged without a code, and an expiry job frees the lock when its
 * window ends. The number stays the account's for a month after its first code.
 */
export function createCodesService(deps: {
  db: Database;
  jobs: Jobs;
  pricing: Pricing;
  clock: Clock;
  realtime: RealtimeHub;
  supply: CodeSupplyPort;
  carrier: CarrierPort;
  log: FastifyBaseLogger;
}) {
  const { db, jobs, pricing, clock, realtime, supply, carrier, log } = deps;
  /** Pool rows of these suppliers are offered: the active supplier's (when it keeps a pool) and our own carrier numbers. */
  const poolSuppliers = supply.handsOutNumbers ? [carrierPool] : [supply.name, carrierPool];
  /** A number of the pool can send through the carrier: ours at the carrier, or the simulator's beside the carrier simulator. */
  const canSendFrom = (supplier: string | undefined) =>
    supplier === carrierPool || (supplier === 'simulator' && carrier.name === 'simulator');
  /** Numbers a real supplier hands out per activation are not ours to keep for months. */
  const keepableSupplier = (supplier: string) => !(supplier === supply.name && supply.handsOutNumbers);
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
      text: withheld ? texts[lang].withheld : row.text,
      code: withheld ? '' : row.code,
      date: row.receivedAt.getTime(),
      charge: fromMinor(row.charge),
      smsId: row.smsId,
    };
  };

  /** Ends a lock and tells the supplier (a lock that ended before is left alone). */
  async function endLock(lockId: number, reason: string, onlyExpired = false) {
    const ended = await codesRepo.endLock(db.q, { id: lockId, reason, now: now(), onlyExpired });
    if (ended && ended.supplier === supply.name) {
      const codes = await codesRepo.smsOfLock(db.q, ended.id);
      await supply
        .finished({ ref: ended.supplierRef, outcome: codes.length ? 'done' : 'cancel' })
        .catch((err: unknown) => {
          log.warn({ err, lockId }, 'telling the code supplier a lock ended failed');
        });
    }
    return ended;
  }

  const service = {
    supplier: supply.name,

    /** getVerificationCodePhoneListV2 / the anonymous list: the account's own numbers first, then free pool numbers. */
    async phoneList(p: {
      accountId: number | null;
      app: string;
      country: string;
      lang: Lang;
    }): Promise<{ numbers: PhoneOption[] }> {
      const { telCode } = await checkAppAndCountry(p.app, p.country, p.lang);
      const t = now();
      const own = p.accountId
        ? await codesRepo.accountNumbers(db.q, {
            accountId: p.accountId,
            app: p.app,
            country: p.country,
            now: t,
          })
        : [];
      const ownPhones = new Set(own.map((n) => n.phone));
      const free = await codesRepo.freeNumbers(db.q, {
        suppliers: poolSuppliers,
        app: p.app,
        country: p.country,
        accountId: p.accountId,
        now: t,
        limit: 50,
      });
      const live = p.accountId
        ? await Promise.all(own.map((n) => codesRepo.liveLock(db.q, n.phone, p.app)))
        : [];
      return {
        numbers: [
          ...own.map((n, i) => {
            const lock = live[i];
            const heldByOther = !!lock && lock.accountId !== p.accountId && lock.expiresAt > t;
            return {
              phone: n.phone,
              subStatus: n.subStatus === 1 ? (1 as const) : (0 as const),
              telCode,
              tip: texts[p.lang].ownTip(isoDay(n.validUntil)),
              canGetNumber: !heldByOther,
              numberType: constants.codeNumberTypes.subscribable,
            };
          }),
          ...free
            .filter((n) => !ownPhones.has(n.phone))
            .map((n) => ({
              phone: n.phone,
              subStatus: 0 as const,
              telCode: n.telCode,
              tip: '',
              canGetNumber: true,
              numberType: constants.codeNumberTypes.subscribable,
            })),
        ],
      };
    },

    async fee(p: { brand: BrandId; app: string; country: string; lang: Lang }) {
      await checkAppAndCountry(p.app, p.country, p.lang);
      const { fee, subRent } = await fees(p.brand, p.app, p.country);
      if (fee === null) throw new ApiError(500000, null, 'codes of this app and country are not offered');
      return { fee: fromMinor(fee), subRent: fromMinor(subRent ?? (0 as Minor)) };
    },

    /** lockVerificationCodePhone. */
    async lock(p: {
      accountId: number;
      brand: BrandId;
      lang: Lang;
      app: string;
      country: string;
      number?: string | undefined;
      lastApp?: string | undefined;
      lastNumber?: string | undefined;
      /** 1 a number that may be kept (subscribed), 2 a one-time number (no subscribe offered). */
      numberType?: number;
    }): Promise<LockedPhone> {
      const keepable = p.numberType !== constants.codeNumberTypes.temporary;
      const { appName: name, telCode } = await checkAppAndCountry(p.app, p.country, p.lang);
      if ((await profileStatusOf(db.q, p.accountId)) === constants.profileStatus.refused) {
        throw new ApiError(100023, { profileStatus: constants.profileStatus.refused, needSetPhone: false });
      }
      const { fee, subRent } = await fees(p.brand, p.app, p.country);
      if (fee === null) throw new ApiError(500000, null, 'codes of this app and country are not offered');
      const account = await accountsRepo.byId(db.q, p.accountId);
      if (!account) throw new ApiError(100012);
      if (account.balance < fee) throw new ApiError(400001);

      // 'try another number': the lock being replaced is given back first
      if (p.lastApp && p.lastNumber) {
        const last = await codesRepo.latestLock(db.q, p.accountId, p.lastNumber, p.lastApp);
        if (last && !last.endedAt) await endLock(last.id, 'replaced');
      }

      const t = now();
      // the account's own live lock of this number is handed back as it is (a second tab, a double click)
      if (p.number) {
        const mine = await codesRepo.liveLock(db.q, p.number, p.app);
        if (mine && mine.accountId === p.accountId && mine.expiresAt > t)
          return lockedPhone(
            mine,
            name,
            telCode,
            keepable && keepableSupplier(mine.supplier) ? subRent : null,
            p.lang,
          );
      }
      if ((await codesRepo.liveLockCount(db.q, p.accountId, t)) >= constants.codeMaxLiveLocks) {
        throw new ApiError(400000, null, 'too many numbers locked at once', {
          en: `You can receive on at most ${constants.codeMaxLiveLocks} numbers at once. Press Done on one first.`,
          zh: `最多同时在 ${constants.codeMaxLiveLocks} 个号码上接收验证码，请先点击完成。`,
        });
      }

      const base = { accountId: p.accountId, brand: p.brand, app: p.app, country: p.country, fee };
      const answer = (row: LockRow) =>
        lockedPhone(row, name, telCode, keepable && keepableSupplier(row.supplier) ? subRent : null, p.lang);

      let candidates: { phone: string; supplier: string }[];
      if (p.number) {
        const pool = await codesRepo.poolNumber(db.q, p.number);
        const offered =
          pool &&
          pool.enabled &&
          (pool.supplier === supply.name || pool.supplier === carrierPool) &&
          pool.country === p.country &&
          (pool.apps === '' || pool.apps.split(',').includes(p.app));
        if (!offered) throw new ApiError(500000, null, 'this number does not take codes of this app');
        candidates = [{ phone: p.number, supplier: pool.supplier }];
      } else {
        const free = await codesRepo.freeNumbers(db.q, {
          suppliers: poolSuppliers,
          app: p.app,
          country: p.country,
          accountId: p.accountId,
          now: t,
          limit: 8,
          random: true,
        });
        candidates = free.map((n) => ({ phone: n.phone, supplier: n.supplier }));
      }

      for (const c of candidates) {
        const row = await lockIn(base, c.phone, c.supplier, t);
        if (!row) continue;
        try {
          await announce(row, p.lang);
        } catch (err) {
          // the supplier refused the activation: the number is given back, another one is tried
          log.warn({ err, phone: c.phone, app: p.app }, 'the code supplier refused a lock');
          await endLock(row.id, 'released');
          continue;
        }
        return answer(row);
      }

      // a supplier that hands out numbers: a fresh activation
      if (!p.number && supply.handsOutNumbers && supply.acquire) {
        let got: { ref: string; phone: string };
        try {
          got = await supply.acquire({ app: p.app, country: p.country });
        } catch (err) {
          if (!(err instanceof CodeSupplyError)) throw err;
          if (err.kind !== 'no_numbers') log.warn({ err, app: p.app }, 'the code supplier gave no number');
          throw new ApiError(500000, null, err.message);
        }
        const facts = phoneFacts(got.phone);
        await codesRepo.addToPool(db.q, [
          {
            phone: got.phone,
            country: facts?.country ?? p.country,
            telCode: facts?.telCode ?? telCode,
            supplier: supply.name,
            apps: '',
          },
        ]);
        const row = await lockIn(base, got.phone, supply.name, t);
        if (!row) {
          // the supplier handed out a number someone here still holds for this app: give it back
          await supply.finished({ ref: got.ref, outcome: 'cancel' });
          throw new ApiError(500000, null, 'the supplier handed out a number in use');
        }
        await started(row, got.ref);
        return answer(row);
      }
      throw new ApiError(500000);
    },

    /** getVerificationCodeSmsList: the code SMS of the account's lock of (number, app); count 0 ends the lock. */
    async poll(p: {
      accountId: number;
      app: string;
      number: string;
      count: number;
      lang: Lang;
    }): Promise<{ smsList: SmsItem[] }> {
      const lock = await codesRepo.latestLock(db.q, p.accountId, p.number, p.app);
      if (!lock) throw new ApiError(100003, null, 'no lock of this account on this number and app');
      if (p.count === 0 && !lock.endedAt) await endLock(lock.id, 'polled_out');
      const rows = await codesRepo.smsOfLock(db.q, lock.id);
      return { smsList: rows.map((r) => smsItem(r, p.lang)) };
    },

    /**
     * A code SMS arrived for a locked number (a supplier, the simulator, the carrier): stored once per
     * source message id and charged once, with its bill, in one transaction. No live lock for its app:
     * nothing is stored or charged ('unmatched').
     */
    async receive(m: InboundCodeSms): Promise<ReceiveResult> {
      const sourceKey = `${m.source}:${m.messageId}`.slice(0, 200);
      const seen = await codesRepo.smsBySource(db.q, sourceKey);
      if (seen) return { status: 'duplicate', smsId: seen.smsId };
      const t = now();
      const result = await db.tx(
        async (tx): Promise<{ row: CodeSmsRow; lock: LockRow } | { dup: string } | null> => {
          const locks = await codesRepo.liveLocksOn(tx, m.phone, t);
          if (!locks.length) return null;
          const app = m.app ?? detectApp(m.text, m.sender);
          const lock =
            (app ? locks.find((l) => l.app === app) : undefined) ??
            (locks.length === 1 && !m.app ? locks[0] : undefined);
          if (!lock) return null;
          let ledgerId: number | null = null;
          let charge = 0 as Minor;
          try {
            const bill = await ledger.apply(tx, {
              accountId: lock.accountId,
              type: constants.billTypes.codeReceive,
              charge: negMinor(lock.fee),
              options: { number: lock.phone, app: lock.app, countryCode: lock.country },
              idempotencyKey: idemKey('code', sourceKey),
            });
            if (!bill.applied) {
              const first = await codesRepo.smsBySource(tx, sourceKey);
              return { dup: first?.smsId ?? '' };
            }
            ledgerId = bill.row.id;
            charge = lock.fee;
          } catch (err) {
            // the balance was spent since the lock: the code is kept but withheld, and not charged
            if (!(isApiError(err) && err.retcode === 400001)) throw err;
          }
          const row = await codesRepo.insertSms(tx, {
            smsId: `code:${randomBytes(9).toString('base64url')}`,
            sourceKey,
            lockId: lock.id,
            accountId: lock.accountId,
            phone: lock.phone,
            app: lock.app,
            sender: (m.sender ?? '').slice(0, 64),
            text: m.text,
            code: extractCode(m.text),
            charge,
            ledgerId,
            receivedAt: t,
          });
          if (!row) {
            // a concurrent delivery of the same message stored it first (its bill is the one kept)
            const first = await codesRepo.smsBySource(tx, sourceKey);
            return { dup: first?.smsId ?? '' };
          }
          if (ledgerId !== null) {
            await codesRepo.claimNumber(tx, {
              phone: lock.phone,
              app: lock.app,
              accountId: lock.accountId,
              country: lock.country,
              now: t,
              validUntil: new Date(t.getTime() + constants.codeNumberValidityDays * dayMs),
            });
          }
          return { row, lock };
        },
      );
      if (!result) {
        log.info({ phone: m.phone, source: m.source }, 'a code SMS for a number nobody has locked: dropped');
        return { status: 'unmatched' };
      }
      if ('dup' in result) return { status: 'duplicate', smsId: result.dup };
      const { row } = result;
      realtime.emitCodeSms(row.accountId, (lang) => ({
        app: row.app,
        number: row.phone,
        sms: smsItem(row, lang),
      }));
      return {
        status: row.ledgerId === null ? 'unpaid' : 'charged',
        smsId: row.smsId,
        accountId: row.accountId,
        charge: row.charge,
      };
    },

    /** getAppListByAccount: the apps of the account's verification numbers. */
    async appsOfAccount(accountId: number, lang: Lang) {
      const [numbers, apps] = await Promise.all([
        codesRepo.accountNumbers(db.q, { accountId, now: now() }),
        catalogueRepo.apps(db.q, lang),
      ]);
      const mine = new Set(numbers.map((n) => n.app));
      return { appList: apps.filter((a) => mine.has(a.app)) };
    },

    /** getCodeNumberListByAccount: the account's verification numbers (one app's, or all). */
    async numbersOfAccount(p: { accountId: number; brand: BrandId; app?: string | undefined; lang: Lang }) {
      const [rows, apps] = await Promise.all([
        codesRepo.accountNumbers(db.q, { accountId: p.accountId, app: p.app, now: now() }),
        catalogueRepo.apps(db.q, p.lang),
      ]);
      const numbers = await Promise.all(
        rows.map(async (n) => {
          const { fee, subRent } = await fees(p.brand, n.app, n.country);
          const national = parsePhone(n.phone)?.nationalNumber ?? n.phone;
          return {
            phone: n.phone,
            oldPhone: String(national),
            app: n.app,
            name: apps.find((a) => a.app === n.app)?.name ?? n.app,
            code: n.country,
            subStatus: n.subStatus === 1 ? (1 as const) : (0 as const),
            nextPaymentDate: isoDay(n.validUntil),
            monthRent: fromMinor(n.subStatus === 1 ? n.monthRent : (subRent ?? (0 as Minor))),
            subRent: fromMinor(subRent ?? (0 as Minor)),
            codeRate: fromMinor(fee ?? (0 as Minor)),
          };
        }),
      );
      return { numbers };
    },

    /** getCodeSmsList: a month of the code SMS of one of the account's numbers, 20 a page. */
    async smsHistory(p: {
      accountId: number;
      app: string;
      number: string;
      ym: string;
      pageSize: number;
      nextPage?: string | undefined;
      lang: Lang;
    }) {
      const { from, to } = monthRange(p.ym);
      const before = p.nextPage && /^\d+$/.test(p.nextPage) ? Number(p.nextPage) : null;
      const rows = await codesRepo.smsPage(db.q, {
        accountId: p.accountId,
        phone: p.number,
        app: p.app,
        from,
        to,
        before,
        limit: p.pageSize + 1,
      });
      const page = rows.slice(0, p.pageSize);
      return {
        smsList: page.map((r) => smsItem(r, p.lang)),
        nextPage: rows.length > p.pageSize ? String(page[page.length - 1]!.id) : null,
      };
    },

    /** subVerificationCodePhone: keep a number monthly; the first month is charged at once with its bill. */
    async subscribe(p: { accountId: number; brand: BrandId; app: string; number: string; lang: Lang }) {
      await assertProfileReady(db.q, p.accountId);
      const t = now();
      const held = await codesRepo.numberHolder(db.q, p.number, p.app);
      const rent = held
        ? await pricing.rate(p.brand, 'code_month', { country: held.country, variant: held.app })
        : null;
      const res = await db.tx(async (tx) => {
        const n = await codesRepo.numberForUpdate(tx, p.number, p.app);
        if (!n || n.accountId !== p.accountId || (n.subStatus === 0 && n.validUntil <= t))
          throw new ApiError(300033, null, 'not a verification number of this account');
        if (rent === null) throw new ApiError(400000, null, 'numbers of this app and country cannot be kept');
        if (n.subStatus === 1) return null;
        return subscribeIn(tx, { ...n, accountId: p.accountId }, rent, t, 1);
      });
      return subscriptionResult(res, p.lang, t);
    },

    /** unSubVerificationCodePhone: no renewal; the number stays until its paid month ends. */
    async unsubscribe(p: { accountId: number; app: string; number: string }) {
      await db.tx(async (tx) => {
        const n = await codesRepo.numberForUpdate(tx, p.number, p.app);
        if (!n || n.accountId !== p.accountId)
          throw new ApiError(100003, null, 'not a verification number of this account');
        await codesRepo.setSubscription(tx, { phone: n.phone, app: n.app, subStatus: 0 });
      });
      return {};
    },

    /** reSubVerificationCodePhone: restore a lapsed number from its history entry (type 100), before its res date. */
    async resubscribe(p: { accountId: number; brand: BrandId; historyId: string; lang: Lang }) {
      await assertProfileReady(db.q, p.accountId);
      const entry = /^\d+$/.test(p.historyId)
        ? await codesRepo.historyEntry(db.q, p.accountId, Number(p.historyId))
        : null;
      if (!entry || entry.type !== constants.verificationHistoryTypes.expired)
        throw new ApiError(100002, null, 'no such lapsed number');
      const t = now();
      if (entry.res_date && entry.res_date < t) throw new ApiError(300033);
      const rent = await pricing.rate(p.brand, 'code_month', { country: entry.country, variant: entry.app });
      if (rent === null) throw new ApiError(400000, null, 'numbers of this app and country cannot be kept');
      const res = await db.tx(async (tx) => {
        const n = await codesRepo.numberForUpdate(tx, entry.phone, entry.app);
        if (n && n.accountId !== p.accountId && (n.subStatus === 1 || n.validUntil > t))
          throw new ApiError(300033);
        if (n && n.accountId === p.accountId && n.subStatus === 1) return null;
        if (!n || n.accountId !== p.accountId) {
          await codesRepo.claimNumber(tx, {
            phone: entry.phone,
            app: entry.app,
            accountId: p.accountId,
            country: entry.country,
            now: t,
            validUntil: t,
          });
        }
        return subscribeIn(
          tx,
          { phone: entry.phone, app: entry.app, country: entry.country, accountId: p.accountId },
          rent,
          t,
          1,
        );
      });
      return subscriptionResult(res, p.lang, t);
    },

    /** getSubCodeNumberList: a month of the verification-number history, newest first. */
    async history(p: {
      accountId: number;
      ym: string;
      pageSize: number;
      nextPage?: string | undefined;
      lang: Lang;
    }) {
      const { from, to } = monthRange(p.ym);
      const before = p.nextPage && /^\d+$/.test(p.nextPage) ? Number(p.nextPage) : null;
      const [rows, apps] = await Promise.all([
        codesRepo.historyPage(db.q, { accountId: p.accountId, from, to, before, limit: p.pageSize + 1 }),
        catalogueRepo.apps(db.q, p.lang),
      ]);
      const page = rows.slice(0, p.pageSize);
      return {
        list: page.map((r) => ({
          _id: String(r.id),
          number: `+${r.phone}`,
          name: apps.find((a) => a.app === r.app)?.name ?? r.app,
          type: r.type as 1 | 2 | 100,
          date: r.created_at.getTime(),
          charge: -fromMinor(r.charge),
          historyId: String(r.id),
          resDate: r.res_date ? isoDay(r.res_date) : ('' as const),
          nextPaymentDate: r.next_payment_date ? isoDay(r.next_payment_date) : ('' as const),
        })),
        nextPage: rows.length > p.pageSize ? String(page[page.length - 1]!.id) : null,
      };
    },

    /**
     * The carrier brought an SMS to one of the pool's numbers (our own numbers; the carrier's inbound
     * side asks here before the chats): a code SMS for the number's live lock, stored and charged once
     * per carrier message id, so a webhook the carrier repeats charges nothing more. null: not a pool
     * number (the chats take it).
     */
    async carrierInbound(m: InboundMessage): Promise<{ delivered: boolean } | null> {
      const to = m.to.replace(/\D/g, '');
      if (!(await codesRepo.poolNumber(db.q, to))) return null;
      const res = await service.receive({
        source: carrierPool,
        messageId: m.carrierId,
        phone: to,
        sender: m.from,
        text: m.text,
      });
      return { delivered: res.status !== 'unmatched' };
    },

    /**
     * sendCodeSms: a text from a verification number the account holds (a live lock, or a number kept
     * or still valid) through the carrier, charged as an SMS to its destination with its bill (type 2),
     * in the transaction that also writes the carrier job; the job refunds the charge if the carrier
     * refuses for good.
     */
    async send(p: {
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
          },
          { dedupeKey: idemKey('code-send', p.accountId, smsId) },
        );
      });
      jobs.run(job);
      return { smsId, date: t.getTime() };
    },

    /** Dev route: a text sent to a locked number as if by the app (`POST /dev/code-sms`). */
    async devSend(p: { number: string; app: string; text: string; sender?: string }) {
      return service.receive({
        source: 'dev',
        messageId: randomBytes(9).toString('base64url'),
        phone: p.number,
        app: p.app,
        text: p.text,
        ...(p.sender ? { sender: p.sender } : {}),
      });
    },
  };

  /** Locks (phone, app) for the account in one transaction with its expiry job; null when someone else holds it. */
  async function lockIn(
    p: { accountId: number; brand: BrandId; app: string; country: string; fee: Minor },
    phone: string,
    supplier: string,
    t: Date,
  ): Promise<LockRow | null> {
    const lock = await db.tx(async (tx) => {
      const holder = await codesRepo.numberHolder(tx, phone, p.app);
      if (holder && holder.accountId !== p.accountId && (holder.subStatus === 1 || holder.validUntil > t))
        return null;
      const expired = await codesRepo.endExpiredOn(tx, phone, p.app, t);
      const row = await codesRepo.insertLock(tx, {
        accountId: p.accountId,
        brand: p.brand,
        phone,
        app: p.app,
        country: p.country,
        fee: p.fee,
        supplier,
        lockedAt: t,
        expiresAt: new Date(t.getTime() + constants.codeLockMs),
      });
      if (!row) return null;
      await jobs.enqueue(
        tx,
        'codes.expire',
        { lockId: row.id },
        { runAt: row.expiresAt.getTime(), dedupeKey: idemKey('code-lock', row.id) },
      );
      return { row, expired };
    });
    if (!lock) return null;
    for (const e of lock.expired)
      if (e.supplier === supply.name) await supply.finished({ ref: e.supplierRef, outcome: 'cancel' });
    return lock.row;
  }

  /** Tells the lock's supplier (our carrier numbers have none): the simulator's app sends, a real supplier is asked for another SMS. */
  async function announce(row: LockRow, lang: Lang) {
    if (row.supplier !== supply.name) return;
    const previousRef = supply.handsOutNumbers
      ? await codesRepo.lastSupplierRef(db.q, row.accountId, row.phone, row.app, row.id)
      : null;
    const res = await supply.locked({
      lockId: row.id,
      phone: row.phone,
      app: row.app,
      country: row.country,
      lang: lang === 'zh' ? 'zh' : 'en',
      previousRef,
    });
    if (res.send) {
      await jobs.enqueue(
        db.q,
        'codes.simSend',
        { lockId: row.id, sender: res.send.sender, text: res.send.text },
        { runAt: clock.now() + res.send.afterMs, dedupeKey: idemKey('code-sim', row.id) },
      );
    }
    if (res.ref) await started(row, res.ref);
  }

  /** A real supplier's activation backs the lock: keep its id and poll it through the jobs queue while the lock lives. */
  async function started(row: LockRow, ref: string) {
    await codesRepo.setSupplierRef(db.q, row.id, ref);
    row.supplierRef = ref;
    if (supply.poll)
      await jobs.enqueue(
        db.q,
        'codes.supplierPoll',
        { lockId: row.id, n: 1 },
        { runAt: clock.now() + (supply.pollEveryMs ?? 5000), dedupeKey: idemKey('code-poll', row.id, 1) },
      );
  }

  /** Charges a month's rent and keeps (phone, app) subscribed until a month on, with its history entry and renewal job. */
  async function subscribeIn(
    tx: Tx,
    n: { phone: string; app: string; country: string; accountId: number },
    rent: Minor,
    from: Date,
    type: 1 | 2,
  ) {
    const until = new Date(`${nextMonthIso(from)}T${from.toISOString().slice(11)}`);
    const bill = await ledger.apply(tx, {
      accountId: n.accountId,
      type: constants.billTypes.numberRent,
      charge: negMinor(rent),
      options: {
        number: n.phone,
        app: n.app,
        countryCode: n.country,
        days: Math.round((until.getTime() - from.getTime()) / dayMs),
      },
      idempotencyKey: idemKey('code-rent', n.app, n.phone, from.getTime()),
    });
    await codesRepo.setSubscription(tx, {
      phone: n.phone,
      app: n.app,
      subStatus: 1,
      monthRent: rent,
      validUntil: until,
    });
    const historyId = await codesRepo.addHistory(tx, {
      accountId: n.accountId,
      phone: n.phone,
      app: n.app,
      country: n.country,
      type,
      charge: rent,
      ledgerId: bill.row.id,
      nextPaymentDate: until,
      resDate: null,
      createdAt: from,
    });
    await jobs.enqueue(
      tx,
      'codes.renew',
      { phone: n.phone, app: n.app, accountId: n.accountId, due: until.getTime() },
      { runAt: until.getTime(), dedupeKey: idemKey('code-renew', n.app, n.phone, until.getTime()) },
    );
    return { historyId, until };
  }

  function subscriptionResult(res: { historyId: number; until: Date } | null, lang: Lang, t: Date) {
    if (!res) return { historyId: '0', date: t.getTime(), subHint: subHints[lang].already };
    return {
      historyId: String(res.historyId),
      date: t.getTime(),
      subHint: subHints[lang].done(isoDay(res.until)),
    };
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
      tip: texts[lang].tip(name, money(row.fee)),
      subTip: subRent !== null ? texts[lang].subTip(money(subRent)) : '',
      subRent: fromMinor(subRent ?? (0 as Minor)),
      codeRate: fromMinor(row.fee),
      canSub: subRent !== null ? 1 : 0,
      subStatus,
      canSendCodeSms: canSendFrom(pool?.supplier),
      expireTime: row.expiresAt.getTime(),
    };
  }

  jobs.define(
    'codes.renew',
    async ({ phone, app, accountId, due }) => {
      const t = now();
      const [account, held] = await Promise.all([
        accountsRepo.byId(db.q, accountId),
        codesRepo.numberHolder(db.q, phone, app),
      ]);
      const rent =
        account && held
          ? await pricing.rate(account.brand, 'code_month', { country: held.country, variant: app })
          : null;
      await db.tx(async (tx) => {
        const n = await codesRepo.numberForUpdate(tx, phone, app);
        // unsubscribed, renewed already, or someone else's now: nothing to do
        if (!n || n.accountId !== accountId || n.subStatus !== 1 || n.validUntil.getTime() !== due) return;
        try {
          if (rent === null) throw new ApiError(400000);
          await subscribeIn(tx, n, rent, new Date(due), 2);
        } catch (err) {
          if (!isApiError(err)) throw err;
          // the balance could not pay (or the number is no longer offered): the number lapses
          await codesRepo.setSubscription(tx, { phone, app, subStatus: 0 });
          await codesRepo.addHistory(tx, {
            accountId,
            phone,
            app,
            country: n.country,
            type: 100,
            charge: 0 as Minor,
            ledgerId: null,
            nextPaymentDate: new Date(due),
            resDate: new Date(due + constants.codeNumberValidityDays * dayMs),
            createdAt: t,
          });
        }
      });
    },
    { maxAttempts: 10 },
  );
  jobs.define(
    'codes.expire',
    async ({ lockId }) => {
      await endLock(lockId, 'expired', true);
    },
    { maxAttempts: 10 },
  );
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
  jobs.define(
    'codes.send',
    async (m) => {
      try {
        await carrier.sendSms({ from: m.from, to: m.to, text: m.text });
      } catch (err) {
        if (err instanceof CarrierError && err.permanent) return refundSend(m, err.message);
        throw err;
      }
    },
    { maxAttempts: 3, onFailed: (m, err) => refundSend(m, err.message) },
  );
  jobs.define(
    'codes.supplierPoll',
    async ({ lockId, n }) => {
      const lock = await codesRepo.lockById(db.q, lockId);
      const t = clock.now();
      if (!lock || lock.endedAt || lock.expiresAt.getTime() <= t || !lock.supplierRef) return;
      if (lock.supplier !== supply.name || !supply.poll) return;
      try {
        const got = await supply.poll(lock.supplierRef);
        if (got.status === 'cancelled') {
          await endLock(lockId, 'released');
          return;
        }
        if (got.status === 'code')
          await service.receive({
            source: supply.name,
            // one SMS per activation and code: the same answer polled twice is one SMS
            messageId: `${lock.supplierRef}:${got.code}`,
            phone: lock.phone,
            app: lock.app,
            text: got.text,
          });
      } catch (err) {
        // the supplier did not answer this time: the next poll asks again
        log.warn({ err, lockId }, 'polling the code supplier failed');
      }
      const next = t + (supply.pollEveryMs ?? 5000);
      if (next < lock.expiresAt.getTime())
        await jobs.enqueue(
          db.q,
          'codes.supplierPoll',
          { lockId, n: n + 1 },
          { runAt: next, dedupeKey: idemKey('code-poll', lockId, n + 1) },
        );
    },
    { maxAttempts: 3 },
  );
  jobs.define(
    'codes.simSend',
    async ({ lockId, sender, text }) => {
      const lock = await codesRepo.lockById(db.q, lockId);
      if (!lock || lock.endedAt) return; // given back before the app sent
      await service.receive({
        source: 'simulator',
        messageId: `lock-${lockId}`,
        phone: lock.phone,
        app: lock.app,
        sender,
        text,
      });
    },
    { maxAttempts: 5 },
  );

  return service;
}

export type CodesService = ReturnType<typeof createCodesService>;
