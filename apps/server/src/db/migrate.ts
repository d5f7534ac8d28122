import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './types';
import { serverRoot } from '../lib/paths';

export const migrationsDir = path.join(serverRoot, 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** `migrations/NNN_name.sql`, in order. The same files serve PGlite and PostgreSQL. */
export function readMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3,}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: readFileSync(path.join(dir, f), 'utf8') }));
}

/**
 * Applies the migrations not yet applied, each in its own transaction, under an advisory lock so that
 * several servers starting at once on one PostgreSQL apply each file exactly once.
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(727274)');
      const rows = await q.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (rows.length) return false;
      for (const statement of splitStatements(m.sql)) await q.query(statement);
      await q.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}

/**
 * Splits a migration into statements on semicolons at the end of a line, outside dollar quotes.
 * (Prepared statements take one statement at a time on both drivers.)
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line) && !inDollar) continue;
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    current += line + '\n';
    if (!inDollar && /;\s*$/.test(line)) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
