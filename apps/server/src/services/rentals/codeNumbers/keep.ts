import {
  constants,
  fromMinor,
  negMinor,
  parsePhone,
  type BrandId,
  type Lang,
  type Minor,
  type VerificationHistoryEntry,
} from '@numa/contract';
import type { Tx } from '../../../db';
import { addMonths, DAY_MS, isoDay, monthRange } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { idemKey } from '../../../lib/idem';
import { jsonObject } from '../../../lib/jsonText';
import { catalogueRepo } from '../../../repositories/catalogue';
import { codesRepo } from '../../../repositories/codes';
import { rentalsRepo } from '../../../repositories/rentals';
import { ledger } from '../../../repositories/ledger';
import { fill, serverTexts } from '../../../lib/texts';
import { assertProfileReady } from '../../profile';
import type { CodesContext } from '../../codes/context';
import type { RentalsEngine } from '../engine';
import { codeNumberRentalPort } from './renewal';

/**
 * Keeping verification numbers (issue 12), a kind of rental (services/rentals): the account's
 * numbers, subscribe (a month charged at once with its bill), unsubscribe, re-subscribe a lapsed one,
 * the history; renewals through the rentals engine (`renewal.ts`, the kind's port).
 */
export function createKeeping(ctx: CodesContext, rentals: RentalsEngine) {
  const { db, jobs, pricing } = ctx.deps;
  const { now, fees } = ctx;

  /** Charges a month's rent and keeps (phone, app) subscribed until a month on, with its history entry and renewal job. */
  async function subscribeIn(
    tx: Tx,
    n: { phone: string; app: string; country: string; accountId: number },
    rent: Minor,
    from: Date,
    type: 1 | 2,
  ) {
    const until = addMonths(from, 1);
    const bill = await ledger.apply(tx, {
      accountId: n.accountId,
      type: constants.billTypes.numberRent,
      charge: negMinor(rent),
      options: {
        number: n.phone,
        app: n.app,
        countryCode: n.country,
        days: Math.round((until.getTime() - from.getTime()) / DAY_MS),
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
    const { id: historyId } = await rentalsRepo.insertHistory(tx, {
      accountId: n.accountId,
      phone: n.phone,
      app: n.app,
      country: n.country,
      type,
      charge: negMinor(rent),
      ledgerId: bill.row.id,
      nextPaymentAt: until,
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

  rentals.register(codeNumberRentalPort(ctx, subscribeIn), { maxAttempts: 10 });

  function subscriptionResult(res: { historyId: number; until: Date } | null, lang: Lang, t: Date) {
    if (!res) return { historyId: '0', date: t.getTime(), subHint: serverTexts[lang].codes.keepAlready };
    return {
      historyId: String(res.historyId),
      date: t.getTime(),
      subHint: fill(serverTexts[lang].codes.keepDone, { until: isoDay(res.until) }),
    };
  }

  return {
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
        ? await rentalsRepo.historyEntry(db.q, 'code_number', p.accountId, Number(p.historyId))
        : null;
      if (!entry?.app || !entry.country || entry.type !== constants.codes.historyTypes.expired)
        throw new ApiError(100002, null, 'no such lapsed number');
      const t = now();
      if (entry.resAt && entry.resAt < t) throw new ApiError(300033);
      const { app, country, fullNumber: phone } = entry;
      const rent = await pricing.rate(p.brand, 'code_month', { country, variant: app });
      if (rent === null) throw new ApiError(400000, null, 'numbers of this app and country cannot be kept');
      const res = await db.tx(async (tx) => {
        const n = await codesRepo.numberForUpdate(tx, phone, app);
        if (n && n.accountId !== p.accountId && (n.subStatus === 1 || n.validUntil > t))
          throw new ApiError(300033);
        if (n && n.accountId === p.accountId && n.subStatus === 1) return null;
        if (!n || n.accountId !== p.accountId) {
          await codesRepo.claimNumber(tx, {
            phone,
            app,
            accountId: p.accountId,
            country,
            now: t,
            validUntil: t,
          });
        }
        return subscribeIn(tx, { phone, app, country, accountId: p.accountId }, rent, t, 1);
      });
      return subscriptionResult(res, p.lang, t);
    },

    /** getSubCodeNumberList: a month of the verification-number history, newest first (JSON text built by the database). */
    async history(p: {
      accountId: number;
      ym: string;
      pageSize: number;
      nextPage?: string | undefined;
      lang: Lang;
    }) {
      const { from, to } = monthRange(p.ym);
      const before = p.nextPage && /^\d+$/.test(p.nextPage) ? Number(p.nextPage) : null;
      const page = await rentalsRepo.codeNumberPage(db.q, {
        accountId: p.accountId,
        from,
        to,
        before,
        pageSize: p.pageSize,
        lang: p.lang,
      });
      return jsonObject<{ list: VerificationHistoryEntry[]; nextPage: string | null }>({
        list: page.list,
        nextPage: JSON.stringify(page.nextPage),
      });
    },
  };
}
