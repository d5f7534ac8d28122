import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
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

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pg.query<R>(query.sql, [...query.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
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

/** The embedded database in `dataDir` (in memory when undefined). */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await PGlite.create(dataDir ? { dataDir, parsers } : { parsers });
  return facade('pglite', new Kysely<DB>({ dialect: new PgliteDialect(pg) }));
}
