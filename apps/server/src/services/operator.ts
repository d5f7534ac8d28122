import { brands, constants, toMinor, type BrandId } from '@numa/contract';
import type { Database } from '../db';
import { accountsRepo, type AccountStatus, type Account } from '../repositories/accounts';
import { ledgerRepo, type LedgerRow } from '../repositories/ledger';

/** Operator actions on accounts (the admin command and tests use these; no HTTP route does). */
export function createOperatorService(db: Database) {
  return {
    /** An account by id, e-mail or full number (`+14155550100` or `14155550100`) within a brand. */
    async find(who: string, brand: BrandId): Promise<Account | null> {
      if (/^\d{1,12}$/.test(who) && !who.startsWith('0') && who.length < 8) return accountsRepo.byId(db, Number(who));
      if (who.includes('@')) return accountsRepo.byAddress(db, brand, { email: who.trim().toLowerCase() });
      const digits = who.replace(/\D/g, '');
      const [row] = await db.query<{ id: number }>(
        `SELECT id FROM accounts WHERE brand = $1 AND tel_code || phone = $2 ORDER BY id LIMIT 1`,
        [brand, digits],
      );
      return row ? accountsRepo.byId(db, row.id) : null;
    },

    /** Credits (positive) or debits (negative) a balance with its bill row, in one transaction. */
    async adjust(accountId: number, amount: number, note: string, idempotencyKey?: string): Promise<LedgerRow> {
      return db.tx(async (q) => {
        const { row } = await ledgerRepo.apply(q, {
          accountId,
          type: constants.billTypes.adjustment,
          charge: toMinor(amount),
          options: { note, by: 'operator' },
          ...(idempotencyKey ? { idempotencyKey } : {}),
          allowNegative: true,
        });
        return row;
      });
    },

    async setStatus(accountId: number, status: (typeof AccountStatus)[keyof typeof AccountStatus]): Promise<void> {
      await accountsRepo.setStatus(db, accountId, status);
    },

    async recentBills(accountId: number, limit = 10): Promise<LedgerRow[]> {
      return db.query<LedgerRow>(
        `SELECT id, account_id AS "accountId", type, charge, before_balance AS "beforeBalance",
                after_balance AS "afterBalance", options, created_at AS "createdAt"
           FROM ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
        [accountId, limit],
      );
    },

    decimals: (brand: BrandId) => brands[brand].currency.decimals,
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
