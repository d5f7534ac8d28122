import {
  constants,
  type BrandId,
  type Lang,
  type LockedPhone,
  type Minor,
  type SmsItem,
} from '@numa/contract';
import { ApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import { phoneFacts } from '../../lib/sms';
import { CodeSupplyError, type Acquired } from '../../providers/codes/port';
import { accountsRepo } from '../../repositories/accounts';
import { codesRepo, type LockRow } from '../../repositories/codes';
import { profileStatusOf } from '../profile';
import { capReached, carrierPool, tooManyLocks, type CodesContext } from './context';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** A lock's window ended: free the number (if no one ended the lock earlier). */
    'codes.expire': { lockId: number };
  }
}

/**
 * Locking numbers (spec 001 §2, §7): the numbers offered for an app, a number locked by an account
 * for an app for the polling window (at most constants.codes.maxLiveLocks at once, within the
 * account's budget), the poll of its code SMS, and the expiry job that frees it when the window ends.
 */
export function createLocking(
  ctx: CodesContext,
  supplier: {
    announce: (row: LockRow, lang: Lang) => Promise<void>;
    started: (row: LockRow, ref: string) => Promise<void>;
  },
) {
  const { db, jobs, pricing, supply, limits, log } = ctx.deps;
  const deps = ctx.deps;
  const {
    poolSuppliers,
    ours,
    keepableSupplier,
    now,
    checkAppAndCountry,
    fees,
    smsItem,
    endLock,
    lockedPhone,
  } = ctx;
  const { announce, started } = supplier;

  /**
   * Locks (phone, app) for the account in one transaction with its expiry job; null when someone else
   * holds it, 'cap' when the account holds constants.codes.maxLiveLocks live locks already. The account's
   * locks are serialised here (an advisory lock), so the count and the insert cannot interleave with
   * another lock of the same account (issue 18: 20 concurrent locks made 20 live locks).
   */
  async function lockIn(
    p: { accountId: number; brand: BrandId; app: string; country: string; fee: Minor },
    phone: string,
    supplier: string,
    t: Date,
  ): Promise<LockRow | null | 'cap'> {
    const lock = await db.tx(async (tx) => {
      await codesRepo.serialiseAccountLocks(tx, p.accountId);
      if ((await codesRepo.liveLockCount(tx, p.accountId, t)) >= constants.codes.maxLiveLocks)
        return 'cap' as const;
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
        expiresAt: new Date(t.getTime() + constants.codes.lockMs),
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
    if (lock === 'cap') deps.metrics?.codeLockRefused('limit');
    if (!lock || lock === 'cap') return lock;
    deps.metrics?.codeLockTaken(lock.expired.length);
    for (const e of lock.expired)
      if (ours(e.supplier))
        await supply
          .finished({ ref: e.supplierRef, outcome: 'cancel', supplier: e.supplier })
          .catch((err: unknown) => log.warn({ err }, 'telling the code supplier a lock ended failed'));
    return lock.row;
  }

  jobs.define(
    'codes.expire',
    async ({ lockId }) => {
      await endLock(lockId, 'expired', true);
    },
    { maxAttempts: 10 },
  );

  return {
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
      // the account's budget of locks, before any database work (issue 18)
      const spent = await limits.codeLock(p.accountId);
      if (!spent.ok) throw tooManyLocks(spent.retryAfterMs);
      const keepable = p.numberType !== constants.codes.numberTypes.temporary;
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
      // a quick refusal before any supplier is asked; the cap holds where the lock is taken (lockIn)
      if ((await codesRepo.liveLockCount(db.q, p.accountId, t)) >= constants.codes.maxLiveLocks) {
        deps.metrics?.codeLockRefused('limit');
        throw capReached();
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
          (ours(pool.supplier) || pool.supplier === carrierPool) &&
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
        // 'try another number': the number just given back is free again, and is offered only when
        // no other is (a random pick handed it straight back to the same user now and then)
        candidates = free
          .filter((n) => n.phone !== p.lastNumber)
          .concat(free.filter((n) => n.phone === p.lastNumber))
          .map((n) => ({ phone: n.phone, supplier: n.supplier }));
      }

      for (const c of candidates) {
        const row = await lockIn(base, c.phone, c.supplier, t);
        if (row === 'cap') throw capReached();
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
        let got: Acquired;
        try {
          // the supplier is told the most it may charge: never more than the fee the user was quoted
          got = await supply.acquire({
            app: p.app,
            country: p.country,
            fee: { amount: fee, currency: pricing.currencyOf(p.brand) },
          });
        } catch (err) {
          if (!(err instanceof CodeSupplyError)) throw err;
          deps.metrics?.codeLockRefused('no_number');
          if (err.kind !== 'no_numbers') log.warn({ err, app: p.app }, 'the code supplier gave no number');
          throw new ApiError(500000, null, err.message);
        }
        const facts = phoneFacts(got.phone);
        await codesRepo.addToPool(db.q, [
          {
            phone: got.phone,
            country: facts?.country ?? p.country,
            telCode: facts?.telCode ?? telCode,
            supplier: got.supplier ?? supply.name,
            apps: '',
          },
        ]);
        const row = await lockIn(base, got.phone, got.supplier ?? supply.name, t);
        if (row === 'cap') {
          // a concurrent lock of the account took the last place: the activation goes back unused
          await supply
            .finished({
              ref: got.ref,
              outcome: 'cancel',
              ...(got.supplier ? { supplier: got.supplier } : {}),
            })
            .catch((err: unknown) => log.warn({ err }, 'giving a number back to its supplier failed'));
          throw capReached();
        }
        if (!row) {
          // the supplier handed out a number someone here still holds for this app: give it back
          await supply
            .finished({
              ref: got.ref,
              outcome: 'cancel',
              ...(got.supplier ? { supplier: got.supplier } : {}),
            })
            .catch((err: unknown) => log.warn({ err }, 'giving a number back to its supplier failed'));
          throw new ApiError(500000, null, 'the supplier handed out a number in use');
        }
        await started(row, got.ref);
        return answer(row);
      }
      deps.metrics?.codeLockRefused('no_number');
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

    /*
     * Programs (issue 21: /api/v1 and the SMS-Activate protocol) address locks by their id; these
     * read and end the account's own locks with the same rules as the page (nothing is charged for a
     * lock that ends without a code).
     */

    /** One of the account's locks (by id, or the newest of a number and app) with its code SMS, newest first. */
    async lockOf(
      accountId: number,
      ref: { id: number } | { number: string; app: string },
      lang: Lang = 'en',
    ): Promise<{ lock: LockRow; sms: SmsItem[]; live: boolean } | null> {
      const lock =
        'id' in ref
          ? await codesRepo.lockById(db.q, ref.id)
          : await codesRepo.latestLock(db.q, accountId, ref.number, ref.app);
      if (!lock || lock.accountId !== accountId) return null;
      const rows = await codesRepo.smsOfLock(db.q, lock.id);
      return {
        lock,
        sms: rows.map((r) => smsItem(r, lang)),
        live: !lock.endedAt && lock.expiresAt > now(),
      };
    },

    /** Ends one of the account's live locks now (given back: 'released'; finished with its code: 'polled_out'). */
    async endLockOf(accountId: number, lockId: number, reason: 'released' | 'polled_out'): Promise<boolean> {
      const lock = await codesRepo.lockById(db.q, lockId);
      if (!lock || lock.accountId !== accountId || lock.endedAt) return false;
      return !!(await endLock(lock.id, reason));
    },
  };
}
