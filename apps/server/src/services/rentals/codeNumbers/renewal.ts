import { constants, zeroMinor, type Minor } from '@numa/contract';
import type { Tx } from '../../../db';
import { DAY_MS, isoDay } from '../../../lib/dates';
import { ApiError } from '../../../lib/errors';
import { idemKey } from '../../../lib/idem';
import { accountsRepo } from '../../../repositories/accounts';
import { codesRepo, type CodeNumberRow } from '../../../repositories/codes';
import { rentalsRepo } from '../../../repositories/rentals';
import type { CodesContext } from '../../codes/context';
import type { RentalPort } from '../engine';

declare module '../../../jobs/types' {
  interface JobPayloads {
    /** A kept verification number's month is up (due, epoch ms): charge the next one, or let it lapse. */
    'codes.renew': { phone: string; app: string; accountId: number; due: number };
  }
}

type Due = CodeNumberRow & { due: number; rent: Minor | null };

/**
 * A kept verification number as a kind of rental (services/rentals/engine.ts): due at the exact end
 * of its month (`valid_until`, the instant it was kept plus calendar months), renewed by a job
 * enqueued for that instant when the month was charged (the sweep enqueues the same job, same key,
 * should it be missing). No grace: a month not paid lets the number lapse at once (history type 100),
 * restorable until constants.codes.numberValidityDays after.
 */
export function codeNumberRentalPort(
  ctx: CodesContext,
  subscribeIn: (
    tx: Tx,
    n: { phone: string; app: string; country: string; accountId: number },
    rent: Minor,
    from: Date,
    type: 1 | 2,
  ) => Promise<unknown>,
): RentalPort<'codes.renew', Due> {
  const { db, pricing } = ctx.deps;
  return {
    kind: 'code_number',
    job: 'codes.renew',
    graceDays: 0,

    dueJob: (r) => {
      const due = r.validUntil.getTime();
      return {
        payload: { phone: r.phone!, app: r.app!, accountId: r.accountId, due },
        dedupeKey: idemKey('code-renew', r.app!, r.phone!, due),
      };
    },

    /** The month's rent in the account's currency, read before the transaction. */
    async prepare({ phone, app, accountId }) {
      const [account, held] = await Promise.all([
        accountsRepo.byId(db.q, accountId),
        codesRepo.numberHolder(db.q, phone, app),
      ]);
      return account && held
        ? await pricing.rate(account.brand, 'code_month', { country: held.country, variant: app })
        : null;
    },

    async lock(tx, { phone, app, accountId, due }, rent) {
      const n = await codesRepo.numberForUpdate(tx, phone, app);
      // unsubscribed, renewed already, or someone else's now: nothing to do
      if (!n || n.accountId !== accountId || n.subStatus !== 1 || n.validUntil.getTime() !== due) return null;
      return { ...n, due, rent: rent as Minor | null };
    },

    renews: () => true,
    async end() {},

    async charge(tx, n) {
      // the number is no longer offered
      if (n.rent === null) throw new ApiError(400000);
      await subscribeIn(tx, n, n.rent, new Date(n.due), 2);
    },

    graceFrom: (n) => isoDay(n.due),

    // the balance could not pay (or the number is no longer offered): the number lapses
    async lapse(tx, n) {
      await codesRepo.setSubscription(tx, { phone: n.phone, app: n.app, subStatus: 0 });
      await rentalsRepo.insertHistory(tx, {
        accountId: n.accountId,
        phone: n.phone,
        app: n.app,
        country: n.country,
        type: constants.codes.historyTypes.expired,
        charge: zeroMinor,
        ledgerId: null,
        nextPaymentAt: new Date(n.due),
        resAt: new Date(n.due + constants.codes.numberValidityDays * DAY_MS),
        createdAt: ctx.now(),
      });
    },
  };
}
