import type { Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migration 025: the code-number pool, locks, received code SMS and the accounts' verification numbers. */
export interface CodesTables {
  code_pool: {
    /** full number, digits */
    phone: string;
    /** ISO 3166-1 alpha-2 */
    country: string;
    tel_code: string;
    /** the adapter answering for the number (simulator | smsactivate) */
    supplier: Generated<string>;
    /** comma-separated apps the number receives codes for; '' every app */
    apps: Generated<string>;
    enabled: Generated<boolean>;
    created_at: Generated<Date>;
  };
  code_locks: {
    id: Generated<number>;
    account_id: number;
    brand: string;
    phone: string;
    app: string;
    country: string;
    /** the price of one code when locked */
    fee: Minor;
    supplier: string;
    supplier_ref: string | null;
    locked_at: Date;
    expires_at: Date;
    ended_at: Date | null;
    /** expired | released | replaced | polled_out | operator */
    end_reason: string | null;
  };
  code_sms: {
    id: Generated<number>;
    sms_id: string;
    /** supplier:messageId (a message delivered twice is stored and charged once) */
    source_key: string;
    lock_id: number;
    account_id: number;
    phone: string;
    app: string;
    sender: Generated<string>;
    text: string;
    code: Generated<string>;
    /** what it cost (>= 0) */
    charge: Minor;
    ledger_id: number | null;
    received_at: Date;
  };
}
