import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Database, DB, Tx } from './types';

/** The transaction a piece of code runs in (set by `Database.tx` around its callback). */
export const txContext = new AsyncLocalStorage<{ open: boolean }>();

/** The facade over a Kysely instance: `q`, `tx(fn)` (the only maker of `Tx` handles), `close`. */
export function facade(kind: Database['kind'], kysely: Kysely<DB>): Database {
  return {
    kind,
    q: kysely,
    tx: (fn) =>
      kysely.transaction().execute(async (trx) => {
        const scope = { open: true };
        try {
          return await txContext.run(scope, () => fn(trx as Tx));
        } finally {
          scope.open = false;
        }
      }),
    close: () => kysely.destroy(),
  };
}
