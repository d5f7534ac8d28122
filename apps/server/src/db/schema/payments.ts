import type { ColumnType, Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migrations 015, 040, 065: top-up orders, the provider notifications that settle them, refunds and disputes. */
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
    /** an operator's refund before migration 065 (its own bill, type 8); refunds are payment_returns now */
    refunded_at: Date | null;
    /** the provider's id of the payment itself (migration 065) */
    payment_ref: string | null;
  };
  payment_events: {
    id: Generated<number>;
    provider: string;
    event_id: string;
    order_id: number | null;
    /** credited | failed | ignored | refused … */
    result: string;
    payload: ColumnType<Record<string, unknown>, string, string>;
    created_at: Generated<Date>;
    /** the notification in our terms (migration 065): payment | refund | dispute */
    kind: string | null;
    ref: string | null;
    payment_ref: string | null;
    /** the refund or dispute id */
    object_id: string | null;
    status: string | null;
    amount: Minor | null;
    currency: string | null;
  };
  /** Migration 065: refunds and disputes of top-ups, one row each, with the bills they wrote. */
  payment_returns: {
    id: Generated<number>;
    provider: string;
    /** refund | dispute */
    kind: string;
    return_id: string;
    order_id: number;
    amount: Minor;
    currency: string;
    /** pending | succeeded | failed | canceled (refund); opened | won | lost (dispute) */
    status: string;
    /** provider | operator */
    origin: Generated<string>;
    debit_bill: number | null;
    reversal_bill: number | null;
    bonus_taken: Generated<Minor>;
    bonus_returned: Generated<Minor>;
    excess: Generated<boolean>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
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
