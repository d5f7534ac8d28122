import pg from 'pg';
import { migrate } from '../src/db/migrate';
import { openPostgres } from '../src/db/postgres';

/**
 * The PostgreSQL suites' databases (server-pg): migrating a new schema for every suite took 2–3 s
 * (170 migrations and their seeds), so global-setup migrates one template database per set of
 * migrations and each suite gets a database of its own cloned from it (`CREATE DATABASE … TEMPLATE`,
 * about 0.2 s), dropped when the suite ends. Databases left by a run that was killed are dropped by
 * the next one (their names carry the process id).
 */

/** The test server's URL with another database. */
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One statement on a short connection to the test server (CREATE/DROP DATABASE run outside a transaction). */
export async function adminQuery<T = Record<string, unknown>>(
  base: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The migrated template database of this set of migrations (made once); killed runs' databases dropped. */
export async function ensurePgTemplate(base: string, hash: string): Promise<string> {
  const name = `numa_tpl_${hash}`;
  // suites' databases of runs that were killed (a live run's stay; so do templates of other migrations,
  // which a run of another checkout may be cloning from)
  const leftovers = await adminQuery<{ datname: string }>(
    base,
    `SELECT datname FROM pg_database WHERE datname LIKE 'numa\\_t\\_%'`,
  );
  for (const { datname } of leftovers) {
    const pid = Number(/^numa_t_(\d+)_/.exec(datname)?.[1]);
    if (!pid || alive(pid)) continue;
    await adminQuery(base, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
  }
  const [found] = await adminQuery(base, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found) return name;
  const building = `numa_t_${process.pid}_tpl`;
  await adminQuery(base, `DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await adminQuery(base, `CREATE DATABASE "${building}"`);
  const db = await openPostgres(databaseUrl(base, building), { max: 2 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  try {
    await adminQuery(base, `ALTER DATABASE "${building}" RENAME TO "${name}"`);
  } catch {
    // another project's setup made it meanwhile
    await adminQuery(base, `DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  }
  return name;
}
