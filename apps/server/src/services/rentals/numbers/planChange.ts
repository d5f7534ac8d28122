import {
  brands,
  constants,
  formatMinor,
  fromMinor,
  minor,
  negMinor,
  zeroMinor,
  type BrandId,
  type Lang,
  type Minor,
  type Plan,
  type PlanChangeOption,
} from '@numa/contract';
import type { Q, Tx } from '../../../db';
import { addMonthsIso, DAY_MS } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { idemKey } from '../../../lib/idem';
import { accountsRepo } from '../../../repositories/accounts';
import { ledger } from '../../../repositories/ledger';
import { subscriptionsRepo, type PlanRow, type SubscriptionRow } from '../../../repositories/subscriptions';
import { fill } from '../../../lib/texts';
import { assertProfileReady, profileStatusOf } from '../../profile';
import {
  both,
  H,
  nameOf,
  notYours,
  periodMonths,
  perMonth,
  planUnknown,
  texts,
  type NumbersContext,
} from './common';

/**
 * Moving a rented number to another plan (issue 11, issue 18 §5): now, with the unused part of the
 * current period credited (proration), or at the next renewal.
 */
export function createPlanChange(
  ctx: NumbersContext,
  toPlan: (p: PlanRow, group: PlanRow[], lang: Lang) => Plan,
) {
  const { d, today } = ctx;
  const { db, pricing, clock } = d;

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
    const total = Math.max(1, Math.round((Date.parse(s.paymentDate) - Date.parse(start)) / DAY_MS));
    const left = Math.min(
      total,
      Math.max(0, Math.round((Date.parse(s.paymentDate) - Date.parse(today())) / DAY_MS)),
    );
    const credit = minor(Math.floor(((current.price ?? 0) * left) / total));
    const payNow = minor(Math.max(0, target.price - credit));
    return { s, current, target, total, left, credit, payNow };
  }
  type ChangeFacts = Awaited<ReturnType<typeof changeFacts>>;
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

  /**
   * Whether a change request was made already (its repeat: a double submit, a retry): moving now to
   * the plan the number is on through its latest plan change, or for the next cycle to the plan
   * already pending.
   */
  async function repeatedChange(
    tx: Tx,
    s: SubscriptionRow,
    input: { planId: number; type: 1 | 2 },
  ): Promise<boolean> {
    if (input.type === constants.planChangeTypes.nextCycle) return s.pendingPlanId === input.planId;
    if (s.planId !== input.planId || s.pendingPlanId !== null) return false;
    const last = await subscriptionsRepo.lastHistory(tx, s.accountId, s.fullNumber, H.changePlan);
    return last?.planId === input.planId;
  }

  return {
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

    /**
     * changePlan: type 1 charges the prorated amount now and starts a new period; type 2 waits for the
     * next renewal. One change request is identified by the subscription's state it was made from: it
     * runs under the subscription's row lock, and a change made now is billed under the key
     * `change-<changes made before it>` (migration 071), so no two changes share a key. The request
     * sent again (a double submit, a retry after a lost answer) finds its change made already: the
     * number is on that plan through a change to it (or has it pending), and it is answered again with
     * nothing charged or written.
     */
    async changePlan(
      accountId: number,
      brand: BrandId,
      lang: Lang,
      input: { virtualNumber: string; planId: number; type: 1 | 2 },
    ) {
      await assertProfileReady(db.q, accountId, { needPhone: true });
      const t = texts[lang];
      const planName = (p: PlanRow) => `${nameOf(p, lang)} (${t.periods[p.period]})`;
      const nowHints = (target: PlanRow, nextDate: string) => ({
        successHint: fill(t.changeNowHint, { plan: planName(target) }),
        planHint: fill(t.planHint, { plan: planName(target), date: nextDate }),
      });
      const nextHints = (current: PlanRow, target: PlanRow, date: string) => ({
        successHint: fill(t.changeNextHint, { plan: planName(target), date }),
        planHint: fill(t.planHint, { plan: planName(current), date }),
      });
      return db.tx(async (tx) => {
        const owned = await subscriptionsRepo.ofNumber(tx, accountId, input.virtualNumber);
        if (!owned) throw notYours();
        const s = await subscriptionsRepo.lockForRenewal(tx, owned.numberId);
        if (!s || s.accountId !== accountId) throw notYours();
        const repeated = await repeatedChange(tx, s, input);
        if (repeated) {
          const currency = pricing.currencyOf(brand);
          const [current, target] = await Promise.all([
            subscriptionsRepo.plan(tx, currency, s.planId),
            subscriptionsRepo.plan(tx, currency, input.planId),
          ]);
          if (current && target)
            return input.type === constants.planChangeTypes.nextCycle
              ? nextHints(current, target, s.paymentDate)
              : nowHints(target, s.paymentDate);
        }
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
          return nextHints(c.current, c.target, c.s.paymentDate);
        }
        const nextDate = addMonthsIso(today(), periodMonths[c.target.period]);
        let ledgerId: number | null = null;
        if (c.payNow > 0) {
          const { row, applied } = await ledger.apply(tx, {
            accountId,
            type: constants.billTypes.numberRent,
            charge: negMinor(c.payNow),
            options: {
              number: c.s.fullNumber,
              planId: c.target.id,
              type: H.changePlan,
              validityType: constants.validityTypes[c.target.period],
            },
            idempotencyKey: idemKey('number-rent', c.s.numberId, `change-${s.changes}`),
          });
          // the key is this change's alone (read under the lock); seen before, something else wrote it
          if (!applied) throw new Error(`plan change ${row.idempotencyKey} was billed already`);
          ledgerId = row.id;
        }
        await subscriptionsRepo.renewed(tx, {
          numberId: c.s.numberId,
          planId: c.target.id,
          paymentDate: nextDate,
          monthRent: perMonth(c.target),
          changed: true,
        });
        await entry(negMinor(c.payNow), ledgerId);
        return nowHints(c.target, nextDate);
      });
    },
  };
}
