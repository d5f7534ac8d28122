import { sql } from 'kysely';
import type { Q } from '../db/types';

/**
 * Planner statistics. PGlite has no autovacuum daemon, so its statistics are never refreshed unless
 * something runs ANALYZE; on PostgreSQL autovacuum does it too, and this only adds a refresh. Only the
 * tables of the schema the app runs in (a shared PostgreSQL may hold other schemas).
 */
export const maintenanceRepo = {
  async analyze(q: Q): Promise<number> {
    const { rows } = await sql<{ name: string }>`
      SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename
    `.execute(q);
    if (rows.length) await sql.raw(`ANALYZE ${rows.map((r) => r.name).join(', ')}`).execute(q);
    return rows.length;
  },
};
