import path from 'node:path';
import type { Env } from '../env';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import { startup } from '../lib/startup';
import type { Database } from './types';

export type { BalanceSource, Database, DB, Q, Tx } from './types';

/** PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/pg; migrated before use. */
export async function openDatabase(env: Pick<Env, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Database> {
  const db = env.DATABASE_URL
    ? await openPostgres(env.DATABASE_URL)
    : await openPglite(path.resolve(env.DATA_DIR, 'pg'));
  startup.mark('database open');
  await migrate(db);
  startup.mark('migrations');
  return db;
}
