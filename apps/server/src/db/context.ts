import { AsyncLocalStorage } from 'node:async_hooks';
import type { Minor } from '@numa/contract';
import type { Kysely } from 'kysely';
import type { Database, DB, Tx } from './types';

/** The transaction a piece of code runs in (set by `Database.tx` around its callback). */
export const txContext = new AsyncLocalStorage<{ open: boolean }>();

/** The accounts whose balance an open transaction changed, by its handle (filled by the ledger). */
const changedBalances = new WeakMap<object, Set<number>>();

/**
 * Notes that `tx` moved an account's balance (`ledger.apply` calls it for every row it writes); once
 * the transaction commits, the database's `onBalancesCommitted` listeners hear of the account.
 */
export function noteBalanceChange(tx: Tx, accountId: number) {
  changedBalances.get(tx)?.add(accountId);
}

/** The facade over a Kysely instance: `q`, `tx(fn)` (the only maker of `Tx` handles), `close`. */
export function facade(kind: Database['kind'], kysely: Kysely<DB>): Database {
  const listeners = new Set<(accountIds: number[], known?: ReadonlyMap<number, Minor>) => void>();
  const announce = (ids: number[], known?: ReadonlyMap<number, Minor>) => {
    for (const l of listeners) {
      try {
        l(ids, known);
      } catch {
        // a listener's failure never turns a committed write into an error
      }
    }
  };
  return {
    kind,
    q: kysely,
    async tx(fn) {
      const changed = new Set<number>();
      const result = await kysely.transaction().execute(async (trx) => {
        changedBalances.set(trx, changed);
        const scope = { open: true };
        try {
          return await txContext.run(scope, () => fn(trx as Tx));
        } finally {
          scope.open = false;
          changedBalances.delete(trx);
        }
      });
      // committed: whoever listens (the balance socket event) hears which balances moved
      if (changed.size) announce([...changed]);
      return result;
    },
    balancesCommitted: announce,
    onBalancesCommitted(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => kysely.destroy(),
  };
}
