import { addMinor, brands, constants, negMinor, zeroMinor, type BrandId, type Lang } from '@numa/contract';
import { addDaysIso, addMonthsIso, isoDay, startOfIso } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { brandLang } from '../../../lib/brand';
import { idemKey } from '../../../lib/idem';
import { accountsRepo } from '../../../repositories/accounts';
import { ledger } from '../../../repositories/ledger';
import { subscriptionsRepo, type SubscriptionRow } from '../../../repositories/subscriptions';
import { fill } from '../../../lib/texts';
import type { RentalPort } from '../engine';
import { H, periodMonths, perMonth, texts, type NumbersContext } from './common';

declare module '../../../jobs/types' {
  interface JobPayloads {
    /** One rented number's rent due on `paymentDate` (one try per day through the grace period). */
    'numbers.renew': { numberId: number; paymentDate: string };
  }
}

type Due = SubscriptionRow & { brand: string };

/**
 * A rented number as a kind of rental (services/rentals/engine.ts): due on its payment date (an ISO
 * date, 00:00 UTC), renewed by the sweep's job; a period not paid starts a grace period of
 * constants.rentals.graceDays (the user is told, the job tries again each day), after which the number
 * is reclaimed (history type 100, restorable for constants.rentals.restoreDays). A number not renewing
 * is released when its paid period ends. The pending plan, if any, starts with the renewal.
 */
export function numberRentalPort(ctx: NumbersContext): RentalPort<'numbers.renew', Due> {
  const { d } = ctx;
  const { db, pricing, jobs, clock } = d;

  async function tellShort(n: { accountId: number; number: string; reclaimOn: string }) {
    d.notify?.(n.accountId, { kind: 'renewalFailed', number: n.number, reclaimOn: n.reclaimOn });
    const account = await accountsRepo.byId(db.q, n.accountId);
    if (!account?.email) return;
    const brand = brands[account.brand];
    const lang: Lang = brandLang(account.brand);
    const t = texts[lang];
    await d.mail
      .send({
        to: account.email,
        subject: fill(t.renewalShortSubject, { brand: brand.name[lang] }),
        text: fill(t.renewalShortText, { number: n.number, date: n.reclaimOn, brand: brand.name[lang] }),
      })
      .catch((err: unknown) => d.log.warn({ err }, 'renewal notice: mail failed'));
  }

  const released = (s: Due) => () =>
    ctx.releaseLater({ telCode: s.telCode, phone: s.number, full: s.fullNumber });

  return {
    kind: 'number',
    job: 'numbers.renew',
    graceDays: constants.rentals.graceDays,

    dueJob: (r, today) => {
      const payload = { numberId: r.numberId!, paymentDate: isoDay(r.validUntil) };
      return { payload, dedupeKey: idemKey('number-renew', payload.numberId, payload.paymentDate, today) };
    },

    async lock(tx, { numberId, paymentDate }) {
      const s = await subscriptionsRepo.lockForRenewal(tx, numberId);
      // done already, or not due
      if (!s || s.paymentDate !== paymentDate || paymentDate > ctx.today()) return null;
      return s;
    },

    renews: (s) => s.autoRenew,

    async end(tx, s) {
      await subscriptionsRepo.releaseNumber(tx, s.numberId);
      return released(s);
    },

    async charge(tx, s) {
      const plan = await subscriptionsRepo.plan(
        tx,
        pricing.currencyOf(s.brand as BrandId),
        s.pendingPlanId ?? s.planId,
      );
      if (!plan || plan.price === null) throw new ApiError(400000);
      const charged = addMinor(plan.price, zeroMinor);
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
        idempotencyKey: idemKey('number-rent', s.numberId, `renew-${s.paymentDate}`),
      });
      await subscriptionsRepo.renewed(tx, {
        numberId: s.numberId,
        planId: plan.id,
        paymentDate: addMonthsIso(s.paymentDate, periodMonths[plan.period]),
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
    },

    graceFrom: (s) => s.graceSince ?? s.paymentDate,

    async lapse(tx, s, today) {
      await subscriptionsRepo.releaseNumber(tx, s.numberId);
      await subscriptionsRepo.insertHistory(tx, {
        accountId: s.accountId,
        telCode: s.telCode,
        number: s.number,
        type: H.expired,
        charge: zeroMinor,
        planId: s.pendingPlanId ?? s.planId,
        ledgerId: null,
        resDate: addDaysIso(today, constants.rentals.restoreDays),
        createdAt: new Date(clock.now()),
      });
      return released(s);
    },

    async wait(tx, s, { endsOn, tomorrow }) {
      let first = false;
      if (!s.graceSince) {
        await subscriptionsRepo.startGrace(tx, s.numberId, s.paymentDate);
        first = true;
      }
      // try again tomorrow (a new key per day; the charge's own key stays one per period)
      await jobs.enqueue(
        tx,
        'numbers.renew',
        { numberId: s.numberId, paymentDate: s.paymentDate },
        {
          runAt: startOfIso(tomorrow),
          dedupeKey: idemKey('number-renew', s.numberId, s.paymentDate, tomorrow),
        },
      );
      if (first) return () => tellShort({ accountId: s.accountId, number: s.fullNumber, reclaimOn: endsOn });
    },
  };
}
