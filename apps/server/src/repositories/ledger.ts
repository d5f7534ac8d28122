import type { constants, BillOptionsOf, BillTypeName, Minor } from '@numa/contract';
import type { Expression, SqlBool } from 'kysely';
import type { Q, Tx } from '../db';
import { noteBalanceChange } from '../db/context';
import { isParam } from '../db/prepared';
import { ApiError } from '../lib/errors';
import type { IdemKey } from '../lib/idem';

type BillTypes = typeof constants.billTypes;

/**
 * What a bill keeps beside its contract options, for the operator and the code that reads it back
 * (never shown: getBillList returns only the contract's keys).
 */
interface BillInternals {
  sms: { app?: string };
  numberRent: { planId?: number; app?: string };
  codeReceive: { app: string };
  refund: { smsId?: string; app?: string };
  adjustment: { note?: string; by?: 'operator' };
  inviteBonus: { inviteCode: string };
  redeemBonus: { inviteCode: string };
  topUpRefund: PaymentReturnRef;
  chargeback: PaymentReturnRef;
  chargebackReversed: PaymentReturnRef;
  refundReversed: PaymentReturnRef;
}
interface PaymentReturnRef {
  provider: string;
  refundId?: string;
  disputeId?: string;
}

/** The options a bill of type K is written with: its contract shape and what it keeps for us. */
export type BillOptionsFor<K extends BillTypeName> = BillOptionsOf<K> &
  (K extends keyof BillInternals ? BillInternals[K] : unknown);

/** A change of balance: each bill type with its own options (the contract's `billOptionsByType`). */
export type BalanceChange = {
  [K in BillTypeName]: {
    accountId: number;
    /** Bill type (contract `constants.billTypes`; table bill_types). */
    type: BillTypes[K];
    /** Signed ten-thousandths: positive credits, negative charges. */
    charge: Minor;
    options: BillOptionsFor<K>;
    /** The same key applied twice changes the balance once (build it with `idemKey`). */
    idempotencyKey?: IdemKey;
  };
}[BillTypeName];

/** A bill row as the statement writes it (the send path passes its options as a prepared parameter). */
interface BillRow {
  accountId: number;
  type: number;
  charge: Minor;
  options?: object;
  idempotencyKey?: IdemKey;
}

export interface LedgerRow {
  id: number;
  accountId: number;
  type: number;
  charge: Minor;
  beforeBalance: Minor;
  afterBalance: Minor;
  options: Record<string, unknown>;
  idempotencyKey: string | null;
  createdAt: Date;
}

const cols = [
  'id',
  'account_id as accountId',
  'type',
  'charge',
  'before_balance as beforeBalance',
  'after_balance as afterBalance',
  'options',
  'idempotency_key as idempotencyKey',
  'created_at as createdAt',
] as const;

/** SQLSTATEs raised by the ledger's triggers (migration 006). */
const belowZero = 'NM001';
const staleBalance = 'NM002';
const codeOf = (err: unknown) => (err as { code?: string } | null)?.code;

/** What a statement holding a bill throws: 400001 for a refusal of the triggers, else the error itself. */
export function ledgerError(err: unknown, accountId: number): unknown {
  if (codeOf(err) === belowZero) return new ApiError(400001);
  if (codeOf(err) === staleBalance)
    return new Error(`ledger: account ${accountId} moved under the row`, { cause: err });
  return err;
}

/**
 * The bill of a change as one INSERT … SELECT (the account row read FOR UPDATE, before/after computed
 * from it, nothing inserted when a charge would go below zero unless the type allows it or when the
 * key was applied before). `apply` runs it; a statement that must do more in the same round trip (the
 * send path, messagesRepo.sendDurable) embeds it as a data-modifying CTE: one statement is one
 * transaction, so the bill commits with whatever the statement writes, and the triggers of migration
 * 006 hold either way. Nothing else in the code base writes a bill.
 */
export function billInsert(
  q: Q,
  c: BillRow,
  negative = c.charge < 0,
  /** A further condition of the bill (the send path's checked statement): false, nothing is written. */
  guard?: Expression<SqlBool>,
) {
  const key = c.idempotencyKey ?? null;
  // a statement built once (db/prepared.ts) passes the options' JSON text as its parameter
  const options = isParam(c.options) ? (c.options as unknown as string) : JSON.stringify(c.options ?? {});
  return q
    .insertInto('ledger')
    .columns([
      'account_id',
      'type',
      'charge',
      'before_balance',
      'after_balance',
      'options',
      'idempotency_key',
    ])
    .expression((eb) => {
      let pick = eb
        .selectFrom('accounts as a')
        .select((s) => [
          'a.id',
          s.cast<number>(s.val(c.type), 'smallint').as('type'),
          s.cast<Minor>(s.val(c.charge), 'bigint').as('charge'),
          'a.balance',
          s('a.balance', '+', c.charge).as('after'),
          s.cast<string>(s.val(options), 'jsonb').as('options'),
          s.cast<string | null>(s.val(key), 'text').as('key'),
        ])
        .where('a.id', '=', c.accountId);
      if (negative) {
        pick = pick.where((w) =>
          w.or([
            w(w('a.balance', '+', c.charge), '>=', 0 as Minor),
            w.exists(
              w
                .selectFrom('bill_types as b')
                .select('b.type')
                .where('b.type', '=', c.type)
                .where('b.allow_negative', '=', true),
            ),
          ]),
        );
      }
      if (guard) pick = pick.where(guard);
      return pick.forUpdate();
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning(cols);
}

/**
 * The ledger: the only code that changes a balance. `apply` takes a transaction handle (a `Tx`, which
 * only `Database.tx` makes), so the bill and whatever it pays for commit together; the database
 * refuses any other write to a balance (migration 006).
 */
export const ledger = {
  /**
   * Writes a bill row and moves the balance by its charge, in one statement: the account row is read
   * and locked (FOR UPDATE, so concurrent changes of one account queue up), the row inserted with
   * before/after balances, and the trigger moves the balance from exactly `before`. A charge that
   * would end below zero is refused with 400001 unless its bill type allows it. With an idempotency
   * key seen before, nothing changes: `applied` is false and `row` is the first bill.
   */
  async apply(tx: Tx, c: BalanceChange): Promise<{ row: LedgerRow; applied: boolean }> {
    const key = c.idempotencyKey ?? null;
    let inserted: LedgerRow | undefined;
    try {
      inserted = await billInsert(tx, c).executeTakeFirst();
    } catch (err) {
      throw ledgerError(err, c.accountId);
    }
    if (inserted) {
      noteBalanceChange(tx, c.accountId, c.type);
      return { row: inserted, applied: true };
    }
    if (key) {
      const first = await ledger.byKey(tx, key);
      if (first) {
        if (first.accountId !== c.accountId || first.type !== c.type) {
          throw new Error(`idempotency key ${key} was used for another change`);
        }
        return { row: first, applied: false };
      }
    }
    const exists = await tx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', c.accountId)
      .executeTakeFirst();
    if (!exists) throw new Error(`account ${c.accountId} not found`);
    throw new ApiError(400001);
  },

  async byKey(q: Q, key: IdemKey | string): Promise<LedgerRow | null> {
    return (
      (await q.selectFrom('ledger').select(cols).where('idempotency_key', '=', key).executeTakeFirst()) ??
      null
    );
  },

  /** An account's newest bills. */
  async recent(q: Q, accountId: number, limit = 10): Promise<LedgerRow[]> {
    return q
      .selectFrom('ledger')
      .select(cols)
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },
};
