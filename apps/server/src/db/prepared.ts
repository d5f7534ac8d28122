import { CompiledQuery, type Compilable, type RawBuilder } from 'kysely';
import type { Q } from './types';

/** A parameter of a statement built once: it stands where its value goes, in the compiled parameters. */
class Param {
  constructor(readonly name: string) {}
}

/** Whether a value is a parameter marker of `prepared` (for builders that transform a value, e.g. to JSON text). */
export const isParam = (v: unknown): boolean => v instanceof Param;

/**
 * A hot statement built and compiled with Kysely ONCE, then run with new values: `build` gets a
 * stand-in for each parameter (typed as its value) and must not branch on them; the compiled text is
 * kept, and each call only puts the values where the stand-ins were. On the send path Kysely's
 * building and compiling cost more CPU than the database's own work on PGlite (docs/decisions.md);
 * the same text also finds its named prepared statement in the drivers (db/pglite.ts, db/postgres.ts)
 * without hashing a new string.
 */
export function prepared<P extends Record<string, unknown>, R>(
  build: (q: Q, p: P) => Compilable<R> | RawBuilder<R>,
): (q: Q, values: P) => Promise<R[]> {
  let compiled: CompiledQuery<R> | null = null;
  return async (q, values) => {
    if (!compiled) {
      const stand = new Proxy({} as P, { get: (_, name) => new Param(String(name)) });
      const built = build(q, stand);
      // a sql`` template compiles with the database's compiler (a query builder ignores the argument)
      compiled = (built as RawBuilder<R>).compile(q);
    }
    const c = compiled;
    const parameters = c.parameters.map((v) => (v instanceof Param ? values[v.name] : v));
    const result = await q.executeQuery<R>(CompiledQuery.raw(c.sql, parameters) as CompiledQuery<R>);
    return result.rows as R[];
  };
}
