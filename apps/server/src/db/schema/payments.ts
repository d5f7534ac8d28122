import type { ColumnType, Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migration 015: top-up orders and the provider notifications that settle them. */
export interface PaymentsTables {
  payment_orders: {
    id: Generated<number>;
    account_id: number;
    brand: string;
    /** getPaymentMethods key */
    method: string;
    provider: string;
    product_id: string;
    currency: string;
    amount: Minor;
    bonus: Generated<Minor>;
    /** pending | paid | failed | cancelled | expired */
    status: Generated<string>;
    provider_ref: string;
    return_url: string | null;
    crypto: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
    created_at: Generated<Date>;
    expires_at: Date;
    paid_at: Date | null;
    closed_at: Date | null;
    refunded_at: Date | null;
  };
  payment_events: {
    id: Generated<number>;
    provider: string;
    event_id: string;
    order_id: number | null;
    /** credited | failed | ignored | refused */
    result: string;
    payload: ColumnType<Record<string, unknown>, string, string>;
    created_at: Generated<Date>;
  };
  payment_sandbox_checkouts: {
    ref: string;
    brand: string;
    description: string;
    amount: Minor;
    currency: string;
    notify_url: string;
    crypto: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
    /** where the page sends the payer back once done (the order's return URL; migration 040) */
    return_url: string | null;
    /** open | paid | failed | cancelled */
    status: Generated<string>;
    last_event: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
}
