import {
  addMinor,
  brands,
  constants,
  formatMinor,
  fromMinor,
  minor,
  negMinor,
  zeroMinor,
  type AreaCountry,
  type BrandId,
  type Lang,
  type Minor,
  type NumberCountry,
  type NumberKind,
  type Plan,
  type PlanChangeOption,
  type SubscriptionHistoryEntry,
  type SubscriptionResult,
} from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Q, Tx } from '../db';
import type { Jobs } from '../jobs';
import { ApiError } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { idemKey } from '../lib/idem';
import { accountsRepo } from '../repositories/accounts';
import { ledger } from '../repositories/ledger';
import { numbersRepo } from '../repositories/numbers';
import {
  subscriptionsRepo,
  type HistoryRow,
  type PlanRow,
  type SubscriptionRow,
} from '../repositories/subscriptions';
import type { MailPort } from '../providers/mail/port';
import { SupplyUnavailableError, type NumberSupplyPort, type SupplyNumber } from '../providers/numbers';
import { caAreaCodes, tollFreeCodes, usAreaCodes } from '../providers/numbers/areaCodes';
import { fill } from './accountTexts';
import type { Pricing } from './pricing';
import { assertProfileReady, profileStatusOf } from './profile';

declare module '../jobs/types' {
  interface JobPayloads {
    /** The sweep: enqueues a renewal for every subscription whose rent is due. */
    'numbers.renewals': Record<string, never>;
    /** One subscription's rent due on `paymentDate` (one try per day through the grace period). */
    'numbers.renew': { numberId: number; paymentDate: string };
  }
}

type NumbersTexts = typeof en.numbers;
const texts: Record<Lang, NumbersTexts> = { en: en.numbers, zh: zh.numbers };
const both = (f: (t: NumbersTexts) => string): Record<Lang, string> => ({ en: f(texts.en), zh: f(texts.zh) });

const H = constants.subscriptionHistoryTypes;
const DAY = 86_400_000;
const periodMonths = { month: 1, quarter: 3, year: 12 } as const;

/** The ISO date `n` months after `iso` (31 January + 1 month is the last day of February). */
export function addMonthsIso(iso: string, n: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1 + n, d));
  if (t.getUTCDate() !== d) t.setUTCDate(0);
  return t.toISOString().slice(0, 10);
}
const addDaysIso = (iso: string, n: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

const noNumber = () =>
  new ApiError(
    500000,
    null,
    undefined,
    both((t) => t.noNumberForArea),
  );
const planUnknown = () =>
  new ApiError(
    100001,
    null,
    'planId',
    both((t) => t.planUnknown),
  );
const notYours = () =>
  new ApiError(
    100003,
    null,
    undefined,
    both((t) => t.numberNotYours),
  );

/** The area code a national number of a New-number country belongs to (NANP: its first 3 digits). */
const areaOf = (code: NumberCountry, phone: string) =>
  code === 'GB' || code === 'AU' ? undefined : phone.slice(0, 3);

export interface SubscriptionDeps {
  db: Database;
  pricing: Pricing;
  supply: NumberSupplyPort;
  jobs: Jobs;
  clock: Clock;
  mail: MailPort;
  log: FastifyBaseLogger;
  /** Tells an account's sockets something changed (a renewal notice); optional. */
  notify?: (accountId: number, event: { kind: 'renewalFailed'; number: string; reclaimOn: string }) => void;
}

/**
 * Number rental (issue 11): the New-number catalogue (areas, free numbers, plans), subscribe,
 * unsubscribe and re-subscribe, the subscription history, and renewals as jobs. Every charge is a
 * ledger row (bill type 5, numberRent) in the transaction that changes the number.
 */
export function createSubscriptionService(d: SubscriptionDeps) {
  const { db, pricing, supply, jobs, clock } = d;
  const today = () => new Date(clock.now()).toISOString().slice(0, 10);

  const perMonth = (p: PlanRow): Minor => minor(Math.round((p.price ?? 0) / periodMonths[p.period]));

  function toPlan(p: PlanRow, group: PlanRow[], lang: Lang): Plan {
    const t = texts[lang];
    const monthly = group.find((g) => g.group === p.group && g.period === 'month');
    const discount =
      monthly?.price && p.price !== null
        ? Math.max(0, Math.round((1 - perMonth(p) / monthly.price) * 100) / 100)
        : 0;
    return {
      planId: p.id,
      planName: t.planNames[p.group as keyof NumbersTexts['planNames']] ?? p.group,
      planRent: fromMinor(p.price ?? zeroMinor),
      planRentPeriod: p.period,
      chargeType: p.chargeType as Plan['chargeType'],
      monthRent: fromMinor(perMonth(p)),
      activationFee: fromMinor(p.activationFee),
      discount,
      tip: t.planTip,
      nextPaymentDate: addMonthsIso(today(), periodMonths[p.period]),
      planDescList: t.planDesc[p.group as keyof NumbersTexts['planDesc']] ?? [],
      urlDict: {},
    };
  }

  const historyEntry = (h: HistoryRow): SubscriptionHistoryEntry => ({
    _id: String(h.id),
    number: `+${h.fullNumber}`,
    type: h.type as SubscriptionHistoryEntry['type'],
    date: h.createdAt.getTime(),
    charge: fromMinor(h.charge),
    historyId: String(h.id),
    resDate: h.type === H.expired && h.resDate && !h.restored ? h.resDate : '',
    planId: h.planId,
  });

  function subHint(lang: Lang, brand: BrandId, full: string, paymentDate: string, price: Minor) {
    return fill(texts[lang].subHint, {
      number: full,
      date: paymentDate,
      price: formatMinor(brands[brand], price, lang),
    });
  }

  /** Rents `n` to the account on `plan` in one transaction: number, charge, subscription, history entry. */
  async function rent(
    tx: Tx,
    p: {
      accountId: number;
      n: SupplyNumber;
      country: string;
      tollFree: boolean;
      plan: PlanRow;
      type: number;
      key: string;
    },
  ): Promise<{ history: HistoryRow; paymentDate: string; total: Minor } | null> {
    const total = addMinor(p.plan.price ?? zeroMinor, p.plan.activationFee);
    const paymentDate = addMonthsIso(today(), periodMonths[p.plan.period]);
    const vn = await numbersRepo.insert(tx, {
      accountId: p.accountId,
      telCode: p.n.telCode,
      number: p.n.phone,
      country: p.country,
      tollFree: p.tollFree,
      tollFreeVerified: false,
      planId: p.plan.id,
      paymentDate,
      monthRent: perMonth(p.plan),
    });
    if (!vn) return null;
    const { row } = await ledger.apply(tx, {
      accountId: p.accountId,
      type: constants.billTypes.numberRent,
      charge: negMinor(total),
      options: {
        number: p.n.full,
        planId: p.plan.id,
        type: p.type,
        validityType: constants.validityTypes[p.plan.period],
      },
      idempotencyKey: idemKey('number-rent', vn.id, p.key),
    });
    await subscriptionsRepo.insertSubscription(tx, {
      numberId: vn.id,
      accountId: p.accountId,
      planId: p.plan.id,
    });
    const history = await subscriptionsRepo.insertHistory(tx, {
      accountId: p.accountId,
      telCode: p.n.telCode,
      number: p.n.phone,
      type: p.type,
      charge: negMinor(total),
      planId: p.plan.id,
      ledgerId: row.id,
      createdAt: new Date(clock.now()),
    });
    return { history, paymentDate, total };
  }

  const acquireLater = (n: SupplyNumber) =>
    supply
      .acquire(n)
      .catch((err: unknown) => d.log.error({ err, number: n.full }, 'number supply: acquire failed'));

  /**
   * Rents a number the supply must hand over first (a real provider sells it to us): refuses a short
   * balance before buying, buys (a provider that cannot sell it: no number for this area), then runs
   * the transaction; when that fails and nobody on the platform holds the number, gives it back.
   */
  async function withNumber<T>(
    accountId: number,
    n: SupplyNumber,
    total: Minor,
    cannot: () => ApiError,
    run: () => Promise<T>,
  ): Promise<T> {
    const account = await accountsRepo.byId(db.q, accountId);
    if (!account || account.balance < total) throw new ApiError(400001);
    try {
      await supply.acquire(n);
    } catch (err) {
      d.log.warn({ err, number: n.full }, 'number supply: acquire refused');
      throw cannot();
    }
    try {
      return await run();
    } catch (err) {
      if (!(await numbersRepo.byFullNumber(db.q, n.full))) await releaseLater(n);
      throw err;
    }
  }
  const releaseLater = (n: SupplyNumber) =>
    supply
      .release(n)
      .catch((err: unknown) => d.log.error({ err, number: n.full }, 'number supply: release failed'));

  /**
   * One subscription's due rent, in one transaction: released when unsubscribed; else charged
   * (the pending plan, if any, starts now) and moved one period on; short of money, the grace period
   * starts (the user is told) and the job retries tomorrow; after the grace period, reclaimed.
   */
  async function renew(numberId: number, paymentDate: string): Promise<void> {
    const now = today();
    let released: SupplyNumber | null = null;
    let notice: { accountId: number; number: string; reclaimOn: string } | null = null;
    await db.tx(async (tx) => {
      const s = await subscriptionsRepo.lockForRenewal(tx, numberId);
      if (!s || s.paymentDate !== paymentDate || paymentDate > now) return; // done already, or not due
      const n = { telCode: s.telCode, phone: s.number, full: s.fullNumber };
      if (!s.autoRenew) {
        await subscriptionsRepo.releaseNumber(tx, numberId);
        released = n;
        return;
      }
      const account = await accountsRepo.byId(tx, s.accountId);
      const plan = await subscriptionsRepo.plan(
        tx,
        pricing.currencyOf(account!.brand),
        s.pendingPlanId ?? s.planId,
      );
      const price = plan?.price ?? null;
      const reclaimOn = addDaysIso(s.graceSince ?? paymentDate, constants.numberGraceDays);
      try {
        if (!plan || price === null) throw new ApiError(400000);
        const charged = addMinor(price, zeroMinor);
        const { row } = await ledger.apply(tx, {
          accountId: s.accountId,
          type: constants.billTypes.numberRent,
          charge: negMinor(charged),
          options: {
            number: s.fullNumber,
            planId: plan.id,
            type: H.renew,
            validityType: constants.validityTypes[plan.period],
          },
          idempotencyKey: idemKey('number-rent', numberId, `renew-${paymentDate}`),
        });
        await subscriptionsRepo.renewed(tx, {
          numberId,
          planId: plan.id,
          paymentDate: addMonthsIso(paymentDate, periodMonths[plan.period]),
          monthRent: perMonth(plan),
        });
        await subscriptionsRepo.insertHistory(tx, {
          accountId: s.accountId,
          telCode: s.telCode,
          number: s.number,
          type: H.renew,
          charge: negMinor(charged),
          planId: plan.id,
          ledgerId: row.id,
          createdAt: new Date(clock.now()),
        });
      } catch (err) {
        if (!(err instanceof ApiError) || (err.retcode !== 400001 && err.retcode !== 400000)) throw err;
        if (now >= reclaimOn) {
          await subscriptionsRepo.releaseNumber(tx, numberId);
          await subscriptionsRepo.insertHistory(tx, {
            accountId: s.accountId,
            telCode: s.telCode,
            number: s.number,
            type: H.expired,
            charge: zeroMinor,
            planId: s.pendingPlanId ?? s.planId,
            ledgerId: null,
            resDate: addDaysIso(now, constants.numberRestoreDays),
            createdAt: new Date(clock.now()),
          });
          released = n;
        } else {
          if (!s.graceSince) {
            await subscriptionsRepo.startGrace(tx, numberId, paymentDate);
            notice = { accountId: s.accountId, number: s.fullNumber, reclaimOn };
          }
          // try again tomorrow (a new key per day; the charge's own key stays one per period)
          await jobs.enqueue(
            tx,
            'numbers.renew',
            { numberId, paymentDate },
            {
              runAt: Date.parse(`${addDaysIso(now, 1)}T00:00:00Z`),
              dedupeKey: idemKey('number-renew', numberId, paymentDate, addDaysIso(now, 1)),
            },
          );
        }
      }
    });
    if (released) await releaseLater(released);
    if (notice) await tellShort(notice);
  }

  async function tellShort(n: { accountId: number; number: string; reclaimOn: string }) {
    d.notify?.(n.accountId, { kind: 'renewalFailed', number: n.number, reclaimOn: n.reclaimOn });
    const account = await accountsRepo.byId(db.q, n.accountId);
    if (!account?.email) return;
    const brand = brands[account.brand];
    const lang: Lang = account.brand === 'jiema' || account.brand === 'cloudnumber' ? 'zh' : 'en';
    const t = texts[lang];
    await d.mail
      .send({
        to: account.email,
        subject: fill(t.renewalShortSubject, { brand: brand.name[lang] }),
        text: fill(t.renewalShortText, { number: n.number, date: n.reclaimOn, brand: brand.name[lang] }),
      })
      .catch((err: unknown) => d.log.warn({ err }, 'renewal notice: mail failed'));
  }

  /**
   * What a plan change would do. Immediate (stated rule): the new plan's full price, less the unused
   * part of the current period — the current plan's price times the whole days left over the
   * period's days — never below 0; a new period starts today.
   */
  async function changeFacts(q: Q, accountId: number, brand: BrandId, virtualNumber: string, planId: number) {
    const s = await subscriptionsRepo.ofNumber(q, accountId, virtualNumber);
    if (!s) throw notYours();
    const currency = pricing.currencyOf(brand);
    const [current, target] = await Promise.all([
      subscriptionsRepo.plan(q, currency, s.planId),
      subscriptionsRepo.plan(q, currency, planId),
    ]);
    if (
      !current ||
      !target?.active ||
      target.price === null ||
      target.country !== current.country ||
      target.kind !== current.kind
    )
      throw planUnknown();
    if (target.id === current.id)
      throw new ApiError(
        100001,
        null,
        'planId',
        both((t) => t.samePlan),
      );
    const start = addMonthsIso(s.paymentDate, -periodMonths[current.period]);
    const total = Math.max(1, Math.round((Date.parse(s.paymentDate) - Date.parse(start)) / DAY));
    const left = Math.min(
      total,
      Math.max(0, Math.round((Date.parse(s.paymentDate) - Date.parse(today())) / DAY)),
    );
    const credit = minor(Math.floor(((current.price ?? 0) * left) / total));
    const payNow = minor(Math.max(0, target.price - credit));
    return { s, current, target, total, left, credit, payNow };
  }
  type ChangeFacts = Awaited<ReturnType<typeof changeFacts>>;
  const nameOf = (p: PlanRow, lang: Lang) =>
    texts[lang].planNames[p.group as keyof NumbersTexts['planNames']] ?? p.group;
  const optionNow = (c: ChangeFacts, brand: BrandId, lang: Lang): PlanChangeOption => ({
    type: constants.planChangeTypes.immediate,
    planId: c.target.id,
    tip: texts[lang].changeNowTip,
    payAmount: fromMinor(c.payNow),
    planName: nameOf(c.target, lang),
    rule: fill(texts[lang].changeNowRule, {
      days: c.left,
      total: c.total,
      credit: formatMinor(brands[brand], c.credit, lang),
    }),
  });
  const optionNext = (c: ChangeFacts, lang: Lang): PlanChangeOption => ({
    type: constants.planChangeTypes.nextCycle,
    planId: c.target.id,
    tip: fill(texts[lang].changeNextTip, { date: c.s.paymentDate }),
    payAmount: 0,
    planName: nameOf(c.target, lang),
    rule: fill(texts[lang].changeNextRule, { date: c.s.paymentDate }),
  });

  jobs.define('numbers.renewals', async () => {
    const now = today();
    for (;;) {
      const due = await subscriptionsRepo.due(db.q, now, 500);
      let added = 0;
      for (const s of due) {
        const r = await jobs.enqueue(db.q, 'numbers.renew', s, {
          dedupeKey: idemKey('number-renew', s.numberId, s.paymentDate, now),
        });
        if (r) added++;
      }
      if (due.length < 500 || !added) return;
    }
  });
  jobs.define('numbers.renew', (p) => renew(p.numberId, p.paymentDate), { maxAttempts: 5 });
  jobs.schedule('numbers.renewals', { everyMs: 3_600_000, offsetMs: 5 * 60_000 }, {});

  return {
    today,

    /** getAreaCodeV2: the New-number countries with their kinds, provinces and area codes. */
    areas(lang: Lang): { countries: AreaCountry[]; defaultCode: NumberCountry } {
      const t = texts[lang];
      const provinces = (m: Record<string, string[]>) =>
        Object.entries(m)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, areaCodes]) => ({ name, areaCodes }));
      const kind = (type: NumberKind, ps: { name: string; areaCodes: string[] }[]) => ({
        type,
        name: t.kinds[type],
        provinces: ps,
      });
      const countries: AreaCountry[] = [
        {
          code: 'US',
          telCode: '1',
          nameNcode: t.countries.US,
          typeList: [kind('local', provinces(usAreaCodes))],
        },
        {
          code: 'CA',
          telCode: '1',
          nameNcode: t.countries.CA,
          typeList: [kind('local', provinces(caAreaCodes))],
        },
        {
          code: 'GB',
          telCode: '44',
          nameNcode: t.countries.GB,
          typeList: [kind('mobile', [{ name: '', areaCodes: [] }])],
        },
        {
          code: 'AU',
          telCode: '61',
          nameNcode: t.countries.AU,
          typeList: [kind('mobile', [{ name: '', areaCodes: [] }])],
        },
        {
          code: 'TollFree',
          telCode: '1',
          nameNcode: t.countries.TollFree,
          typeList: [kind('tollFree', [{ name: '', areaCodes: tollFreeCodes }])],
        },
      ];
      return { countries, defaultCode: 'US' };
    },

    /** getVirtualPhoneByAreaCode: the area's numbers nobody on the platform holds. */
    async freeNumbers(p: {
      code: NumberCountry;
      type: NumberKind;
      telCode: string;
      areaCode?: string | undefined;
    }) {
      let found: SupplyNumber[];
      try {
        found = await supply.search({ code: p.code, type: p.type, areaCode: p.areaCode }, 50);
      } catch (err) {
        if (!(err instanceof SupplyUnavailableError)) throw err;
        d.log.warn({ err }, 'number supply: search failed');
        throw new ApiError(300002);
      }
      const held = await subscriptionsRepo.held(
        db.q,
        found.map((n) => n.full),
      );
      const numbers = found
        .filter((n) => n.telCode === p.telCode && !held.has(n.full))
        .slice(0, constants.numbersPerArea)
        .map((n) => n.phone);
      return { numbers };
    },

    /** getPlanList: a country's plans and price options in the brand's currency. */
    async planList(p: { brand: BrandId; lang: Lang; code: NumberCountry; type: NumberKind }) {
      const rows = (
        await subscriptionsRepo.plans(db.q, pricing.currencyOf(p.brand), { country: p.code, kind: p.type })
      ).filter((r) => r.price !== null);
      return { planList: rows.map((r) => toPlan(r, rows, p.lang)) };
    },

    /**
     * subVirtualPhone: the number must be one the supply offers for the area and nobody holds; the
     * first period (and activation fee) is charged at once. A repeated submit of a number this account
     * just rented answers the first result again (one charge).
     */
    async subscribe(
      accountId: number,
      brand: BrandId,
      lang: Lang,
      input: { planId: number; telCode: string; phone: string; code: NumberCountry; type: NumberKind },
    ): Promise<SubscriptionResult> {
      await assertProfileReady(db.q, accountId, { needPhone: true });
      const plan = await subscriptionsRepo.plan(db.q, pricing.currencyOf(brand), input.planId);
      if (!plan?.active || plan.price === null || plan.country !== input.code || plan.kind !== input.type)
        throw planUnknown();
      const n: SupplyNumber = {
        telCode: input.telCode,
        phone: input.phone,
        full: input.telCode + input.phone,
      };
      /** This account's subscription of the number, answered again to a repeated submit (one charge). */
      const repeated = async (q: Q) => {
        const held = await numbersRepo.byFullNumber(q, n.full);
        if (!held) return null;
        const first =
          held.accountId === accountId
            ? await subscriptionsRepo.lastHistory(q, accountId, n.full, H.subscribe)
            : null;
        if (!first) throw noNumber();
        return { history: first, paymentDate: held.paymentDate, total: negMinor(first.charge) };
      };
      const result = (done: { history: HistoryRow; paymentDate: string; total: Minor }) => ({
        historyId: String(done.history.id),
        date: done.history.createdAt.getTime(),
        subHint: subHint(lang, brand, n.full, done.paymentDate, done.total),
      });
      // held already: this account's repeated submit, or someone else's (a real supply no longer offers it)
      const before = await repeated(db.q);
      if (before) return result(before);
      if (
        !(await supply.offers(
          { code: input.code, type: input.type, areaCode: areaOf(input.code, input.phone) },
          n.full,
        ))
      )
        throw noNumber();
      const country = input.code === 'TollFree' ? 'US' : input.code;
      const total = addMinor(plan.price, plan.activationFee);
      const done = await withNumber(accountId, n, total, noNumber, () =>
        db.tx(async (tx) => {
          const r = await rent(tx, {
            accountId,
            n,
            country,
            tollFree: input.code === 'TollFree',
            plan,
            type: H.subscribe,
            key: 'sub',
          });
          if (r) return r;
          const first = await repeated(tx);
          if (!first) throw noNumber();
          return first;
        }),
      );
      return result(done);
    },

    /** reSubVirtualPhone: a reclaimed number back on its last plan, while nobody else holds it. */
    async resubscribe(
      accountId: number,
      brand: BrandId,
      lang: Lang,
      input: { historyId: string; date: number },
    ): Promise<SubscriptionResult> {
      await assertProfileReady(db.q, accountId, { needPhone: true });
      const cannot = () =>
        new ApiError(
          300033,
          null,
          undefined,
          both((t) => t.cannotRestore),
        );
      const id = /^\d{1,15}$/.test(input.historyId) ? Number(input.historyId) : 0;
      const h = id ? await subscriptionsRepo.history(db.q, accountId, id) : null;
      if (!h || h.type !== H.expired || h.createdAt.getTime() !== input.date || h.planId === null)
        throw cannot();
      if (h.restored || !h.resDate || h.resDate < today()) throw cannot();
      const plan = await subscriptionsRepo.plan(db.q, pricing.currencyOf(brand), h.planId);
      if (!plan?.active || plan.price === null) throw cannot();
      const n: SupplyNumber = { telCode: h.telCode, phone: h.number, full: h.fullNumber };
      const facts = await numbersRepo.byFullNumber(db.q, n.full);
      if (facts) throw cannot();
      const total = addMinor(plan.price, plan.activationFee);
      const done = await withNumber(accountId, n, total, cannot, () =>
        db.tx(async (tx) => {
          if (!(await subscriptionsRepo.markRestored(tx, h.id))) throw cannot();
          const r = await rent(tx, {
            accountId,
            n,
            country: plan.country === 'TollFree' ? 'US' : plan.country,
            tollFree: plan.country === 'TollFree',
            plan,
            type: H.resubscribe,
            key: `resub-${h.id}`,
          });
          if (!r) throw cannot();
          return r;
        }),
      );
      return {
        historyId: String(done.history.id),
        date: done.history.createdAt.getTime(),
        subHint: subHint(lang, brand, n.full, done.paymentDate, done.total),
      };
    },

    /** unSubVirtualPhone: no more renewals; the number stays until its paid period ends. */
    async unsubscribe(accountId: number, input: { telCode: string; phone: string }): Promise<void> {
      const s = await subscriptionsRepo.ofNumber(db.q, accountId, input.telCode + input.phone);
      if (!s) throw notYours();
      if (!s.autoRenew) return;
      await db.tx(async (tx) => {
        await subscriptionsRepo.setAutoRenew(tx, s.numberId, false);
        await subscriptionsRepo.insertHistory(tx, {
          accountId,
          telCode: s.telCode,
          number: s.number,
          type: H.unsubscribe,
          charge: zeroMinor,
          planId: s.planId,
          ledgerId: null,
          createdAt: new Date(clock.now()),
        });
      });
    },

    /** getSubscriptionList: a page of a UTC month's history. */
    async historyPage(accountId: number, p: { date: string; pageNo: number; pageSize: number }) {
      const [y, m] = p.date.split('-').map(Number) as [number, number];
      const { total, rows } = await subscriptionsRepo.historyPage(db.q, {
        accountId,
        from: new Date(Date.UTC(y, m - 1, 1)),
        to: new Date(Date.UTC(y, m, 1)),
        limit: p.pageSize,
        offset: (p.pageNo - 1) * p.pageSize,
      });
      return { list: rows.map(historyEntry), totalRows: total };
    },

    /** Runs the renewals due now (the operator's "run renewals now"; tests after moving the clock). */
    async runRenewals(): Promise<void> {
      await jobs.enqueue(
        db.q,
        'numbers.renewals',
        {},
        { dedupeKey: idemKey('number-renew', 'sweep', today()) },
      );
      await jobs.drain();
    },

    /** getManagePlanList: the plans a number may move to, with its current and pending plan. */
    async managePlans(accountId: number, brand: BrandId, lang: Lang, virtualNumber: string) {
      const s = await subscriptionsRepo.ofNumber(db.q, accountId, virtualNumber);
      if (!s) throw notYours();
      const currency = pricing.currencyOf(brand);
      const current = await subscriptionsRepo.plan(db.q, currency, s.planId);
      const rows = current
        ? (
            await subscriptionsRepo.plans(db.q, currency, { country: current.country, kind: current.kind })
          ).filter((r) => r.price !== null)
        : [];
      const [profileStatus, account] = await Promise.all([
        profileStatusOf(db.q, accountId),
        accountsRepo.byId(db.q, accountId),
      ]);
      return {
        planList: rows.map((r) => toPlan(r, rows, lang)),
        profileStatus,
        needSetPhone: !account?.phone,
        currentPlanId: s.planId,
        pendingPlanId: s.pendingPlanId,
        pendingEffectiveDate: s.pendingPlanId ? s.paymentDate : null,
      };
    },

    /** preChangePlan: the immediate (prorated) and next-cycle ways of moving a number to a plan. */
    async changeOptions(
      accountId: number,
      brand: BrandId,
      lang: Lang,
      virtualNumber: string,
      planId: number,
    ) {
      const c = await changeFacts(db.q, accountId, brand, virtualNumber, planId);
      return { changeList: [optionNow(c, brand, lang), optionNext(c, lang)] };
    },

    /** changePlan: type 1 charges the prorated amount now and starts a new period; type 2 waits for the next renewal. */
    async changePlan(
      accountId: number,
      brand: BrandId,
      lang: Lang,
      input: { virtualNumber: string; planId: number; type: 1 | 2 },
    ) {
      await assertProfileReady(db.q, accountId, { needPhone: true });
      const t = texts[lang];
      const planName = (p: PlanRow) => `${nameOf(p, lang)} (${t.periods[p.period]})`;
      return db.tx(async (tx) => {
        const owned = await subscriptionsRepo.ofNumber(tx, accountId, input.virtualNumber);
        if (!owned) throw notYours();
        await subscriptionsRepo.lockForRenewal(tx, owned.numberId);
        const c = await changeFacts(tx, accountId, brand, input.virtualNumber, input.planId);
        const now = new Date(clock.now());
        const entry = (charge: Minor, ledgerId: number | null) =>
          subscriptionsRepo.insertHistory(tx, {
            accountId,
            telCode: c.s.telCode,
            number: c.s.number,
            type: H.changePlan,
            charge,
            planId: c.target.id,
            ledgerId,
            createdAt: now,
          });
        if (input.type === constants.planChangeTypes.nextCycle) {
          await subscriptionsRepo.setPending(tx, c.s.numberId, c.target.id);
          await entry(zeroMinor, null);
          return {
            successHint: fill(t.changeNextHint, { plan: planName(c.target), date: c.s.paymentDate }),
            planHint: fill(t.planHint, { plan: planName(c.current), date: c.s.paymentDate }),
          };
        }
        const nextDate = addMonthsIso(today(), periodMonths[c.target.period]);
        let ledgerId: number | null = null;
        if (c.payNow > 0) {
          const { row } = await ledger.apply(tx, {
            accountId,
            type: constants.billTypes.numberRent,
            charge: negMinor(c.payNow),
            options: {
              number: c.s.fullNumber,
              planId: c.target.id,
              type: H.changePlan,
              validityType: constants.validityTypes[c.target.period],
            },
            idempotencyKey: idemKey(
              'number-rent',
              c.s.numberId,
              `change-${c.s.planId}-${c.target.id}-${c.s.paymentDate}-${today()}`,
            ),
          });
          ledgerId = row.id;
        }
        await subscriptionsRepo.renewed(tx, {
          numberId: c.s.numberId,
          planId: c.target.id,
          paymentDate: nextDate,
          monthRent: perMonth(c.target),
        });
        await entry(negMinor(c.payNow), ledgerId);
        return {
          successHint: fill(t.changeNowHint, { plan: planName(c.target) }),
          planHint: fill(t.planHint, { plan: planName(c.target), date: nextDate }),
        };
      });
    },

    /** The operator's reclaim: the number leaves its account now (history type 100, restorable). */
    async reclaim(fullNumber: string): Promise<{ accountId: number } | null> {
      const held = await numbersRepo.byFullNumber(db.q, fullNumber);
      if (!held) return null;
      const n = { telCode: held.telCode, phone: held.number, full: held.fullNumber };
      await db.tx(async (tx) => {
        const s = await subscriptionsRepo.lockForRenewal(tx, held.id);
        await subscriptionsRepo.releaseNumber(tx, held.id);
        await subscriptionsRepo.insertHistory(tx, {
          accountId: held.accountId,
          telCode: held.telCode,
          number: held.number,
          type: H.expired,
          charge: zeroMinor,
          planId: s ? (s.pendingPlanId ?? s.planId) : null,
          ledgerId: null,
          resDate: addDaysIso(today(), constants.numberRestoreDays),
          createdAt: new Date(clock.now()),
        });
      });
      await releaseLater(n);
      return { accountId: held.accountId };
    },

    /**
     * The operator's restore: the number's last reclaim undone for its former account, on its last
     * plan, with its rent due today (the next renewal run charges it, or starts the grace period).
     */
    async restore(fullNumber: string): Promise<{ accountId: number }> {
      const h = await subscriptionsRepo.lastExpired(db.q, fullNumber);
      if (!h || h.planId === null)
        throw new ApiError(300033, null, 'no reclaimed subscription of this number to restore');
      const planId = h.planId;
      await db.tx(async (tx) => {
        if (!(await subscriptionsRepo.markRestored(tx, h.id)))
          throw new ApiError(300033, null, 'already restored');
        const facts = await numbersRepo.byFullNumber(tx, h.fullNumber);
        if (facts) throw new ApiError(300033, null, `held by account ${facts.accountId}`);
        const account = await accountsRepo.byId(tx, h.accountId);
        const plan = await subscriptionsRepo.plan(tx, pricing.currencyOf(account!.brand), planId);
        const vn = await numbersRepo.insert(tx, {
          accountId: h.accountId,
          telCode: h.telCode,
          number: h.number,
          country: plan?.country === 'TollFree' ? 'US' : (plan?.country ?? 'US'),
          tollFree: plan?.country === 'TollFree',
          tollFreeVerified: false,
          planId,
          paymentDate: today(),
          monthRent: plan ? perMonth(plan) : zeroMinor,
        });
        if (!vn) throw new ApiError(300033, null, 'just taken');
        await subscriptionsRepo.insertSubscription(tx, { numberId: vn.id, accountId: h.accountId, planId });
        await subscriptionsRepo.insertHistory(tx, {
          accountId: h.accountId,
          telCode: h.telCode,
          number: h.number,
          type: H.resubscribe,
          charge: zeroMinor,
          planId,
          ledgerId: null,
          createdAt: new Date(clock.now()),
        });
      });
      await acquireLater({ telCode: h.telCode, phone: h.number, full: h.fullNumber });
      return { accountId: h.accountId };
    },

    ofAccount: (accountId: number): Promise<SubscriptionRow[]> =>
      subscriptionsRepo.ofAccount(db.q, accountId),
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
