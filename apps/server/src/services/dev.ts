import type { Database } from '../db';
import { outboxRepo } from '../repositories/outbox';
import { rateEventsRepo } from '../repositories/rateEvents';

/** Dev mode only: what the outside world would have received, and lifting code limits (tests, demos). */
export function createDevService(db: Database) {
  return {
    outbox: (to: string) => outboxRepo.list(db.q, to),
    /** Forgets the code-sending limits of an address, as if the hour had passed. */
    clearCodeLimits: (to: string) => rateEventsRepo.clearCodeLimits(db.q, to),
  };
}

export type DevService = ReturnType<typeof createDevService>;
