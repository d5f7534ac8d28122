import {
  addMinor,
  constants,
  negMinor,
  zeroMinor,
  type BrandId,
  type Lang,
  type Minor,
  type NumberCountry,
  type NumberKind,
  type SubscriptionHistoryEntry,
  type SubscriptionResult,
} from '@numa/contract';
import type { Q, Tx } from '../../../db';
import { addDaysIso, addMonthsIso, monthRange } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { jsonObject } from '../../../lib/jsonText';
import { idemKey } from '../../../lib/idem';
import { accountsRepo } from '../../../repositories/accounts';
import { ledger } from '../../../repositories/ledger';
import { numbersRepo } from '../../../repositories/numbers';
import { subscriptionsRepo, type HistoryRow, type PlanRow } from '../../../repositories/subscriptions';
import type { SupplyNumber } from '../../../providers/numbers';
import { assertProfileReady } from '../../profile';
import {
  areaOf,
  both,
  H,
  noNumber,
  notYours,
  periodMonths,
  perMonth,
  planUnknown,
  subHint,
  type NumbersContext,
} from './common';

/**
 * A rented number's life (issue 11): subscribe (the first period and activation fee charged at once),
 * unsubscribe, re-subscribe a reclaimed number, the operator's reclaim and restore, the history.
 * Every charge is a ledger row (bill type 5, numberRent) in the transaction that changes the number.
 */
export function createNumberLifecycle(ctx: NumbersContext) {
  const { d, today, acquireLater, releaseLater } = ctx;
  const { db, pricing, supply, clock } = d;

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
      paymentDate,
      at: new Date(clock.now()),
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

  return {
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
      const { from, to } = monthRange(p.date);
      const { total, list } = await subscriptionsRepo.historyPage(db.q, {
        accountId,
        from,
        to,
        limit: p.pageSize,
        offset: (p.pageNo - 1) * p.pageSize,
      });
      return jsonObject<{ list: SubscriptionHistoryEntry[]; totalRows: number }>({
        list,
        totalRows: String(total),
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
          resDate: addDaysIso(today(), constants.rentals.restoreDays),
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
        await subscriptionsRepo.insertSubscription(tx, {
          numberId: vn.id,
          accountId: h.accountId,
          planId,
          paymentDate: today(),
          at: new Date(clock.now()),
        });
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

    ofAccount: (accountId: number) => subscriptionsRepo.ofAccount(db.q, accountId),
  };
}
