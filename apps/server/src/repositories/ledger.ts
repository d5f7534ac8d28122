import type { Queryable } from '../db';
import { ApiError } from '../lib/errors';
import { accountsRepo } from './accounts';

export interface BalanceChange {
  accountId: number;
  /** Bill type (contract `billTypes`). */
  type: number;
  /** Signed, ten-thousandths: positive credits, negative charges. */
  charge: number;
  options?: Record<string, unknown>;
  /** The same key applied twice changes the balance once. */
  idempotencyKey?: string;
  /** A charge may take the balance below zero (operator debits); otherwise 400001. */
  allowNegative?: boolean;
}

export interface LedgerRow {
  id: number;
  accountId: number;
  type: number;
  charge: number;
  beforeBalance: number;
  afterBalance: number;
  options: Record<string, unknown>;
  createdAt: Date;
}

const cols = `id, account_id AS "accountId", type, charge, before_balance AS "beforeBalance",
  after_balance AS "afterBalance", options, created_at AS "createdAt"`;

export const ledgerRepo = {
  /**
   * Changes a balance and writes its bill row. Must run inside the caller's transaction (`q` from
   * `db.tx`): the account row is locked, so concurrent changes serialise. Returns the row, and whether
   * it was applied now (false when the idempotency key had been applied before).
   */
  async apply(q: Queryable, c: BalanceChange): Promise<{ row: LedgerRow; applied: boolean }> {
    if (c.idempotencyKey) {
      const [existing] = await q.query<LedgerRow>(`SELECT ${cols} FROM ledger WHERE idempotency_key = $1`, [c.idempotencyKey]);
      if (existing) return { row: existing, applied: false };
    }
    const before = await accountsRepo.lockBalance(q, c.accountId);
    if (before === null) throw new Error(`account ${c.accountId} not found`);
    if (c.idempotencyKey) {
      // re-check under the lock: a concurrent twin may have committed meanwhile
      const [existing] = await q.query<LedgerRow>(`SELECT ${cols} FROM ledger WHERE idempotency_key = $1`, [c.idempotencyKey]);
      if (existing) return { row: existing, applied: false };
    }
    const after = before + c.charge;
    if (c.charge < 0 && after < 0 && !c.allowNegative) throw new ApiError(400001);
    await accountsRepo.setBalance(q, c.accountId, after);
    const [row] = await q.query<LedgerRow>(
      `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance, options, idempotency_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${cols}`,
      [c.accountId, c.type, c.charge, before, after, JSON.stringify(c.options ?? {}), c.idempotencyKey ?? null],
    );
    return { row: row!, applied: true };
  },
};
