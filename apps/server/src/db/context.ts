import { AsyncLocalStorage } from 'node:async_hooks';
import type { Minor } from '@numa/contract';
import type { Kysely } from 'kysely';
import type { BalanceSource, Database, DB, Tx } from './types';

/** The transaction a piece of code runs in (set by `Database.tx` around its callback). */
export const txContext = new AsyncLocalStorage<{ open: boolean }>();

/** The accounts whose balance an open transaction changed, by its handle (filled by the ledger). */
const changedBalances = new WeakMap<object, Set<number>>();
/** The bill types an open transaction wrote, one entry per bill, by its handle (filled by the ledger). */
const writtenBills = new WeakMap<object, number[]>();
/** What runs once an open transaction committed, by its handle (`afterCommit`). */
const onCommit = new WeakMap<object, (() => void)[]>();

/**
 * Notes that `tx` moved an account's balance (`ledger.apply` calls it for every row it writes); once
 * the transaction commits, the database's `onBalancesCommitted` listeners hear of the account, and
 * its `onBillsWritten` listeners of the bill's type.
 */
export function noteBalanceChange(tx: Tx, accountId: number, billType?: number) {
  changedBalances.get(tx)?.add(accountId);
  if (billType !== undefined) writtenBills.get(tx)?.push(billType);
}

/**
 * Runs `fn` once the transaction `tx` committed (never when it rolls back); on a handle that is not
 * an open transaction of a facade, at once. For observers only (metrics): `fn` must not throw or
 * touch the database; a failure of it is swallowed.
 */
export function afterCommit(tx: Tx, fn: () => void) {
  const list = onCommit.get(tx);
  if (list) list.push(fn);
  else runQuietly(fn);
}

function runQuietly(fn: () => void) {
  try {
    fn();
  } catch {
    // an observer's failure never turns a committed write into an error
  }
}

/** How balance changes travel between processes (PostgreSQL's NOTIFY; db/notify.ts). */
export interface BalanceChannel {
  publish(accountIds: number[]): Promise<void>;
  listen(onIds: (accountIds: number[]) => void): Promise<() => Promise<void>>;
}

/** The facade over a Kysely instance: `q`, `tx(fn)` (the only maker of `Tx` handles), `close`. */
export function facade(kind: Database['kind'], kysely: Kysely<DB>, channel?: BalanceChannel): Database {
  const listeners = new Set<
    (accountIds: number[], from: BalanceSource, known?: ReadonlyMap<number, Minor>) => void
  >();
  const billListeners = new Set<(billTypes: number[]) => void>();
  const tellBills = (types: number[]) => {
    for (const l of billListeners) runQuietly(() => l(types));
  };
  const publishing = new Set<Promise<void>>();
  const announce = (ids: number[], from: BalanceSource = 'here', known?: ReadonlyMap<number, Minor>) => {
    for (const l of listeners) {
      try {
        l(ids, from, known);
      } catch {
        // a listener's failure never turns a committed write into an error
      }
    }
    // a process nobody here listens in (the operator's command) hands its changes to the servers
    if (from === 'here' && !listeners.size && channel) {
      const p = channel
        .publish(ids)
        .catch(() => {})
        .finally(() => publishing.delete(p));
      publishing.add(p);
    }
  };
  return {
    kind,
    q: kysely,
    async tx(fn) {
      const changed = new Set<number>();
      const bills: number[] = [];
      const after: (() => void)[] = [];
      const result = await kysely.transaction().execute(async (trx) => {
        changedBalances.set(trx, changed);
        writtenBills.set(trx, bills);
        onCommit.set(trx, after);
        const scope = { open: true };
        try {
          return await txContext.run(scope, () => fn(trx as Tx));
        } finally {
          scope.open = false;
          changedBalances.delete(trx);
          writtenBills.delete(trx);
          onCommit.delete(trx);
        }
      });
      // committed: whoever listens (the balance socket event) hears which balances moved
      if (changed.size) announce([...changed]);
      if (bills.length) tellBills(bills);
      for (const f of after) runQuietly(f);
      return result;
    },
    balancesCommitted: (ids, known) => announce(ids, 'here', known),
    onBalancesCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    billsWritten: (types) => tellBills(types),
    onBillsWritten(listener) {
      billListeners.add(listener);
      return () => billListeners.delete(listener);
    },
    ...(channel ? { hearOtherProcesses: () => channel.listen((ids) => announce(ids, 'elsewhere')) } : {}),
    async close() {
      // what is still being handed to the servers goes first
      await Promise.all([...publishing]);
      await kysely.destroy();
    },
  };
}
