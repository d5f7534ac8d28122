import { mkdirSync } from 'node:fs';
import { PGlite, parse, protocol, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { facade, txContext } from './context';
import type { Database, DB } from './types';

/** int8 and numeric come back as JS numbers (money is in ten-thousandths, well inside 2^53). */
const parsers = {
  [types.INT8]: (v: string) => Number(v),
  [types.NUMERIC]: (v: string) => Number(v),
};

/** Named statements kept per database at most (each holds its parse tree and, once chosen, its plan). */
const maxStatements = 500;

const { serialize } = protocol;
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
/** PostgreSQL's "cached plan must not change result type" (a table a kept statement reads changed shape). */
const stalePlan = (err: unknown) =>
  (err as { code?: string } | null)?.code === '0A000' && /cached plan/.test(String((err as Error).message));

/**
 * Statements go to PGlite as one batch of protocol messages each (PGlite's own `query` makes six
 * calls into the WebAssembly backend per statement), and a statement with parameters is kept as a
 * named prepared statement the first time its text is seen (up to `maxStatements`), so the next run
 * binds and executes it without parsing and planning it again — what node-postgres does with named
 * queries and pgx or postgres.js with their statement caches. On the embedded database, where the
 * backend runs in this thread, planning was most of a short statement's cost (docs/decisions.md).
 */
class PgliteConnection implements DatabaseConnection {
  private readonly named = new Map<string, { name: string; types: number[] }>();
  private seq = 0;

  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const params = query.parameters;
    let messages;
    if (!params.length) {
      // nothing to bind: parse, bind, describe, execute at once, unnamed
      messages = await this.run([
        serialize.parse({ text: query.sql }),
        serialize.bind({}),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]);
    } else {
      const statement = await this.prepared(query.sql);
      if (!statement) {
        const result = await this.pg.query<R>(query.sql, [...params]);
        return this.toResult(result);
      }
      const values = params.map((v, i) => {
        if (v === null || v === undefined) return null;
        const serializer = this.pg.serializers[statement.types[i]!];
        return serializer ? (serializer(v) as string) : String(v as string);
      });
      try {
        messages = await this.run([
          serialize.bind({ statement: statement.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]);
      } catch (err) {
        if (stalePlan(err)) await this.forget(query.sql);
        throw err;
      }
    }
    const [result] = parse.parseResults(messages, this.pg.parsers);
    return this.toResult(result as unknown as { rows: R[]; affectedRows?: number });
  }

  private toResult<R>(result: { rows: R[]; affectedRows?: number } | undefined): QueryResult<R> {
    return {
      rows: result?.rows ?? [],
      ...(result?.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  /** One batch of protocol messages (ending with Sync); a statement's error is thrown after the Sync. */
  private async run(parts: Uint8Array[]) {
    return (await this.pg.execProtocol(concat(parts))).messages;
  }

  /** The named statement of a text: parsed and described once; null when the room is used up. */
  private async prepared(text: string) {
    const known = this.named.get(text);
    if (known) return known;
    if (this.named.size >= maxStatements) return null;
    const name = `s${++this.seq}`;
    const messages = await this.run([
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    this.named.set(text, statement);
    return statement;
  }

  private async forget(text: string) {
    const known = this.named.get(text);
    if (!known) return;
    this.named.delete(text);
    await this.run([serialize.close({ type: 'S', name: known.name }), serialize.sync()]).catch(() => {});
  }

  // eslint-disable-next-line require-yield -- PGlite answers whole results only
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream results');
  }
}

/**
 * Kysely's driver for PGlite (decided: our own, docs/decisions.md "Core"). PGlite is one connection,
 * so the driver hands it to one user at a time: a transaction holds it from BEGIN to COMMIT, and any
 * other statement waits its turn instead of slipping into the open transaction. A statement that
 * would wait for the very transaction it runs inside (a query on the database root from within
 * `Database.tx`) can never run: it is refused at once with an error naming the mistake.
 */
class PgliteDriver implements Driver {
  private readonly connection: PgliteConnection;
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly pg: PGlite) {
    this.connection = new PgliteConnection(pg);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.busy) {
      if (txContext.getStore()?.open) {
        throw new Error(
          'a statement outside the open transaction (on the database root, or a second transaction) would wait for that transaction forever: PGlite has one connection; use the transaction handle',
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.busy = true;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel.toUpperCase()}` : '';
    await conn.executeQuery(CompiledQuery.raw(`BEGIN${level}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async destroy(): Promise<void> {
    await this.pg.close();
  }
}

export class PgliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new PgliteDriver(this.pg);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

/**
 * The extensions every open loads, as PostgreSQL loads an installed extension's library: pg_trgm, the
 * message search's trigram index (migration 130).
 */
export const pgliteExtensions = { pg_trgm };

/**
 * The embedded database in `dataDir`, or in memory when undefined: empty, or with `from` (a data
 * folder as PGlite's `dumpDataDir` writes it) loaded into it (the test suites' copies of one template).
 */
export async function openPglite(dataDir: string | undefined, from?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const extensions = pgliteExtensions;
  const pg = await PGlite.create(
    dataDir
      ? { dataDir, parsers, extensions }
      : { parsers, extensions, ...(from ? { loadDataDir: from } : {}) },
  );
  return facade('pglite', new Kysely<DB>({ dialect: new PgliteDialect(pg) }));
}
