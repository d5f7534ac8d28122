import type { Generated } from 'kysely';

/** Migration 012 (security): secrets every server shares, spent proof-of-work challenges. */
export interface SecurityTables {
  server_secrets: {
    name: string;
    value: string;
    created_at: Generated<Date>;
  };
  pow_spent: {
    challenge_hash: string;
    expires_at: Date;
  };
}
