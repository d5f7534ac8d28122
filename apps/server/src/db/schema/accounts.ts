import type { ColumnType, Generated } from 'kysely';
import type { BrandId, Minor } from '@numa/contract';

/** Migrations 001, 005, 006, 170: accounts, their sessions, the ledger, the bill types and the history counts. */
export interface AccountsTables {
  accounts: {
    id: Generated<number>;
    brand: BrandId;
    email: string | null;
    tel_code: string | null;
    phone: string | null;
    /** 1 active, 2 suspended (100008), 3 deleted (200018) */
    status: Generated<number>;
    /** Read-only here: only a ledger row moves it (trigger ledger_moves_balance). */
    balance: ColumnType<Minor, never, never>;
    can_invite: Generated<boolean>;
    can_set_inviter: Generated<boolean>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
    vip_until: Date | null;
  };
  sessions: {
    id: Generated<number>;
    account_id: number;
    token_hash: string;
    created_at: Generated<Date>;
    expires_at: Date;
    last_seen_at: Generated<Date>;
    revoked_at: Date | null;
    /** logout | refreshed | elsewhere | operator */
    revoke_reason: string | null;
    /** The first session of the refresh chain (migration 030); null on the first one itself. */
    family_id: number | null;
    /** A replaced token's key to its successor (HMAC-SHA256 of the replaced token; migration 075). */
    successor_key: string | null;
    /** How many times the successor was handed again to a refresh of the replaced token (two tabs). */
    successor_replays: Generated<number>;
    user_agent: string | null;
    ip: string | null;
  };
  /** The bill: append-only (trigger ledger_append_only), so no column is updatable. */
  ledger: {
    id: Generated<number>;
    account_id: ColumnType<number, number, never>;
    type: ColumnType<number, number, never>;
    charge: ColumnType<Minor, Minor, never>;
    before_balance: ColumnType<Minor, Minor, never>;
    after_balance: ColumnType<Minor, Minor, never>;
    options: ColumnType<Record<string, unknown>, string | undefined, never>;
    idempotency_key: ColumnType<string | null, string | null | undefined, never>;
    created_at: ColumnType<Date, never, never>;
  };
  bill_types: {
    type: number;
    name: string;
    allow_negative: Generated<boolean>;
  };
  /**
   * Migration 170: the month totals of the page-numbered histories (payment, sms, call, number), per
   * account, kind and UTC month (its first day), kept by the tables' statement triggers.
   */
  history_counts: {
    account_id: number;
    kind: 'payment' | 'sms' | 'call' | 'number';
    month: ColumnType<Date, string, string>;
    n: number;
  };
}
