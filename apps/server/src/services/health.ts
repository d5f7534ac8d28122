import type { Database } from '../db';
import { healthRepo } from '../repositories/health';

/** What /healthz reports: whether the database answers. */
export function createHealthService(db: Database) {
  return {
    async check(): Promise<{ ok: boolean; database: Database['kind'] }> {
      try {
        await healthRepo.ping(db.q);
        return { ok: true, database: db.kind };
      } catch {
        return { ok: false, database: db.kind };
      }
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
