import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable } from './types';

/** int8 and numeric come back as JS numbers (money is in ten-thousandths, well inside 2^53). */
const parsers = {
  [types.INT8]: (v: string) => Number(v),
  [types.NUMERIC]: (v: string) => Number(v),
};

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ? { dataDir, parsers } : { parsers });
  const run = async <T>(q: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
    (await q.query<T>(sql, params as unknown[] | undefined)).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => run(pg, sql, params),
    tx: (fn) =>
      pg.transaction(async (t) => {
        const q: Queryable = { query: (sql, params) => run(t, sql, params) };
        return fn(q);
      }),
    close: () => pg.close(),
  };
}
