import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { facade } from './context';
import { postgresBalanceChannel } from './notify';
import type { Database, DB } from './types';

const typeParsers: Record<number, (v: string) => unknown> = {
  20: (v) => Number(v), // int8
  1700: (v) => Number(v), // numeric
};

export interface PostgresOptions {
  /** Run every connection in this schema (tests use one schema per suite). */
  schema?: string;
  max?: number;
}

/** A PostgreSQL server through a `pg` pool, with Kysely's own PostgresDialect. */
export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  if (opts.schema) {
    const c = await pool.connect();
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    } finally {
      c.release();
    }
  }
  const listener = () =>
    new pg.Client({
      connectionString: url,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
  return facade(
    'postgres',
    new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
    postgresBalanceChannel(pool, listener, opts.schema),
  );
}
