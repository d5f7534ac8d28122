import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lazy } from '../lib/lazy';
import { serverRoot } from '../lib/paths';
import { maintenanceRepo } from '../repositories/maintenance';
import { raw } from './raw';
import type { Database, Q } from './types';

export const migrationsDir = path.join(serverRoot, 'migrations');

/** Rows for a table, loaded right after the migration's SQL: `NNN_name.<table>.csv`, a header line of column names. */
export interface Seed {
  table: string;
  file: string;
  csv: string;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
  seeds: Seed[];
}

/**
 * `migrations/NNN_name.sql`, in order, each with its data files `NNN_name.<table>.csv` (generated data
 * such as the rates and country names, never hand-typed INSERTs). The same files serve PGlite and
 * PostgreSQL.
 */
export function readMigrations(dir = migrationsDir): Migration[] {
  const files = readdirSync(dir).sort();
  return files
    .filter((f) => /^\d{3,}_[\w-]+\.sql$/.test(f))
    .map((f) => {
      const base = f.slice(0, -'.sql'.length);
      const seeds = files
        .map((s) => new RegExp(`^${base}\\.([a-z_]+)\\.csv$`).exec(s))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ table: m[1]!, file: m[0], csv: readFileSync(path.join(dir, m[0]), 'utf8') }));
      return {
        version: Number(f.split('_')[0]),
        name: f,
        sql: readFileSync(path.join(dir, f), 'utf8'),
        seeds,
      };
    });
}

/** Inserts a seed's rows (text values; the columns' types apply), 500 to a statement. */
async function loadSeed(q: Q, seed: Seed): Promise<void> {
  const rows = lazy.csvParse().parse(seed.csv, { skip_empty_lines: true }) as string[][];
  const [header, ...data] = rows;
  if (!header || !header.every((c) => /^[a-z_]+$/.test(c)))
    throw new Error(`${seed.file}: the first line must name the columns`);
  const cols = header.map((c) => `"${c}"`).join(', ');
  for (let i = 0; i < data.length; i += 500) {
    const batch = data.slice(i, i + 500);
    const params: string[] = [];
    const values = batch.map((row) => {
      if (row.length !== header.length)
        throw new Error(`${seed.file}: a row has ${row.length} fields, the header ${header.length}`);
      return `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`;
    });
    await raw(q, `INSERT INTO "${seed.table}" (${cols}) VALUES ${values.join(', ')}`, params);
  }
}

/**
 * Applies the migrations not yet applied, each (with its seeds) in its own transaction, under an
 * advisory lock so that several servers starting at once on one PostgreSQL apply each file exactly once.
 * When any was applied, the schema's tables are analyzed (the 'db.analyze' job keeps it up hourly).
 */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  await raw(
    db.q,
    `CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  // what is applied already is skipped without a transaction of its own (a start on an up-to-date
  // database is one read); the rest is checked again under the lock
  const present = new Set(
    (await raw<{ version: number }>(db.q, 'SELECT version FROM schema_migrations')).map((r) => r.version),
  );
  const applied: string[] = [];
  for (const m of migrations) {
    if (present.has(m.version)) continue;
    const done = await db.tx(async (tx) => {
      await raw(tx, 'SELECT pg_advisory_xact_lock(727274)');
      const rows = await raw(tx, 'SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (rows.length) return false;
      for (const statement of splitStatements(m.sql)) await raw(tx, statement);
      for (const seed of m.seeds) await loadSeed(tx, seed);
      await raw(tx, 'INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  // fresh statistics for the planner after the schema or its data changed (PGlite never refreshes them itself)
  if (applied.length) await maintenanceRepo.analyze(db.q);
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
