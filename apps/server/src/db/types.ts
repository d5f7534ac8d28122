import type { Minor } from '@numa/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema';

export type { DB } from './schema';

/**
 * A handle statements run on: the database itself (each statement on its own) or an open
 * transaction. Repository functions that only read, or write one row on their own, take a `Q`.
 */
export type Q = Kysely<DB>;

declare const txBrand: unique symbol;

/** Who committed a balance change: this process, or another one (heard through the database). */
export type BalanceSource = 'here' | 'elsewhere';

/**
 * An open transaction, as handed out by `Database.tx` only. Repository functions that must run
 * inside the caller's transaction (the ledger, a job born claimed, anything locked FOR UPDATE) take a
 * `Tx`; the database root (`Database.q`) is not assignable to it, so the compiler refuses a call
 * outside a transaction.
 */
export type Tx = Transaction<DB> & { readonly [txBrand]: true };

/**
 * The database as services see it: `q` for statements on their own, `tx(fn)` for a transaction
 * (committed when `fn` resolves, rolled back when it throws). PGlite has one connection: inside
 * `fn`, every statement must use the `tx` handle (a statement on `q` would wait for the transaction
 * forever; the PGlite driver refuses it at once instead).
 */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly q: Q;
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` after every committed transaction that moved balances (through `ledger.apply`),
   * with those accounts; returns the unsubscribe. app.ts pushes the new balances to the sockets.
   */
  onBalancesCommitted(
    listener: (accountIds: number[], from: BalanceSource, known?: ReadonlyMap<number, Minor>) => void,
  ): () => void;
  /**
   * Tells the `onBalancesCommitted` listeners of balances moved by a write already committed outside
   * `tx` (a bill written inside one statement, not through `ledger.apply`); `known`: the balances that
   * write committed, when it returned them (listeners need not read them back).
   */
  balancesCommitted(accountIds: number[], known?: ReadonlyMap<number, Minor>): void;
  /**
   * Calls `listener` after every committed transaction that wrote bills (through `ledger.apply`),
   * with their bill types, one entry per bill; returns the unsubscribe. The metrics count them.
   */
  onBillsWritten(listener: (billTypes: number[]) => void): () => void;
  /** Tells the `onBillsWritten` listeners of bills a statement committed outside `tx` (the send path's). */
  billsWritten(billTypes: number[]): void;
  /**
   * PostgreSQL: starts hearing the balances other processes commit — a process with no listener of
   * its own (the operator's command) publishes its changes with NOTIFY, and they reach this process's
   * listeners as `elsewhere`. Resolves once listening, with the stop. Absent on PGlite (one process).
   */
  hearOtherProcesses?(): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
