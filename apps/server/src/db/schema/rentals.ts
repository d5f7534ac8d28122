import type { ColumnType, Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migration 150: rentals (rented numbers and kept verification numbers) and their one history. */
export interface RentalsTables {
  rentals: {
    id: Generated<number>;
    /** number: the rented number (the rental goes with it) */
    number_id: number | null;
    /** code_number: the verification number and its app */
    phone: string | null;
    app: string | null;
    /** number | code_number, from the key (generated; null never read) */
    kind: ColumnType<'number' | 'code_number' | null, never, never>;
    account_id: number;
    /** code_number: the number's country */
    country: string | null;
    plan_id: number | null;
    pending_plan_id: number | null;
    auto_renew: Generated<boolean>;
    /** code_number: the month's rent while kept */
    rent: Generated<Minor>;
    /** the end of the period paid for (or given): the next charge is due then */
    valid_until: Date;
    /** a date: read it with to_char */
    grace_since: ColumnType<Date | null, string | null, string | null>;
    /** plan changes made now, counted: the next one's idempotency key (migration 071) */
    changes: Generated<number>;
    started_at: Generated<Date>;
  };
  rental_history: {
    id: Generated<number>;
    kind: ColumnType<'number' | 'code_number' | null, never, never>;
    account_id: number;
    full_number: string;
    tel_code: string | null;
    number: string | null;
    app: string | null;
    country: string | null;
    type: number;
    /** signed as its bill */
    charge: Generated<Minor>;
    plan_id: number | null;
    ledger_id: number | null;
    next_payment_at: Date | null;
    res_at: Date | null;
    restored: Generated<boolean>;
    created_at: Date;
  };
}
