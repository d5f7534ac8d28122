import type pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { lazy } from '../lib/lazy';
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

/** Named statements at most (per connection, each holds its parse tree and, once chosen, its plan). */
const maxStatements = 500;

/**
 * The pool as Kysely sees it, its clients running every statement with parameters as a named
 * prepared statement (node-postgres parses it once per connection, then only binds and executes it;
 * PostgreSQL plans it again only while a custom plan pays). Names are handed out per text, up to
 * `maxStatements`; later texts run unnamed.
 */
function preparingPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name && names.size < maxStatements) {
      name = `s${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let w = wrapped.get(client);
    if (!w) {
      w = {
        query: ((a: unknown, b?: readonly unknown[]) => {
          // a cursor (Kysely's streaming) or a statement without parameters: as it is
          if (typeof a !== 'string' || !b?.length) return client.query(a as string, b as unknown[]);
          const name = nameOf(a);
          return name
            ? client.query({ name, text: a, values: b as unknown[] })
            : client.query(a, b as unknown[]);
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      wrapped.set(client, w);
    }
    return w;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
}

/** A PostgreSQL server through a `pg` pool, with Kysely's own PostgresDialect. */
export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Database> {
  const pg = lazy.pg();
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
    new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) }),
    postgresBalanceChannel(pool, listener, opts.schema),
  );
}
