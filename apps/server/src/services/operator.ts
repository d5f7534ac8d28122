import type { SessionService } from './sessions';
import { brands, constants, normalizeFullPhone, toMinor, type BannerAds, type BrandId } from '@numa/contract';
import type { Database } from '../db';
import { idemKey } from '../lib/idem';
import { adsRepo } from '../repositories/ads';
import { accountsRepo, type AccountStatus, type Account } from '../repositories/accounts';
import { ledger, type LedgerRow } from '../repositories/ledger';

export type { Account } from '../repositories/accounts';
export type { LedgerRow } from '../repositories/ledger';

/** Operator actions on accounts (the admin command and tests use these; no HTTP route does). */
export function createOperatorService(db: Database, sessions?: Pick<SessionService, 'forget'>) {
  return {
    /** An account by id, e-mail or full number (`+14155550100` or `14155550100`) within a brand. */
    async find(who: string, brand: BrandId): Promise<Account | null> {
      if (/^\d{1,12}$/.test(who) && !who.startsWith('0') && who.length < 8)
        return accountsRepo.byId(db.q, Number(who));
      if (who.includes('@')) return accountsRepo.byAddress(db.q, brand, { email: who.trim().toLowerCase() });
      const normal = normalizeFullPhone(who);
      const id = await accountsRepo.idByFullPhone(
        db.q,
        brand,
        normal ? `${normal.telCode}${normal.phone}` : who.replace(/\D/g, ''),
      );
      return id === null ? null : accountsRepo.byId(db.q, id);
    },

    /**
     * Credits (positive) or debits (negative) a balance by an amount in the brand's unit, with its
     * bill row (type 9, adjustment, which may take a balance below zero). With a `reference`, the
     * same adjustment given twice counts once.
     */
    async adjust(accountId: number, amount: number, note: string, reference?: string): Promise<LedgerRow> {
      return db.tx(async (tx) => {
        const { row } = await ledger.apply(tx, {
          accountId,
          type: constants.billTypes.adjustment,
          charge: toMinor(amount),
          options: { note, by: 'operator' },
          ...(reference ? { idempotencyKey: idemKey('operator', accountId, reference) } : {}),
        });
        return row;
      });
    },

    async setStatus(
      accountId: number,
      status: (typeof AccountStatus)[keyof typeof AccountStatus],
    ): Promise<void> {
      await accountsRepo.setStatus(db.q, accountId, status);
      // the session cache of this server (and, with Redis, the others) reads the new status at once
      sessions?.forget(accountId);
    },

    async recentBills(accountId: number, limit = 10): Promise<LedgerRow[]> {
      return ledger.recent(db.q, accountId, limit);
    },

    decimals: (brand: BrandId) => brands[brand].currency.decimals,

    /** The brand's banner ad (getAdConfig): English and Chinese picture and link; null removes it. */
    setBannerAd: (brand: BrandId, ad: BannerAds | null) => adsRepo.set(db.q, brand, ad),
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
