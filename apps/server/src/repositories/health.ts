import { sql } from 'kysely';
import type { Q } from '../db';

export const healthRepo = {
  /** One round trip to the database. */
  async ping(q: Q): Promise<void> {
    await sql`SELECT 1`.execute(q);
  },
};
