import type { Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migration 048: the embedded plans page's US cell phone plans, lines and orders. */
export interface CellPlansTables {
  cell_plans: {
    id: number;
    /** starter | plus | unlimited | global */
    code: string;
    country: string;
    data_gb: number;
    unlimited: boolean;
    hotspot_gb: number;
    intl_calls: boolean;
    sort: number;
    active: Generated<boolean>;
  };
  cell_lines: {
    id: Generated<number>;
    account_id: number;
    plan_id: number;
    /** 1 eSIM, 2 physical SIM */
    card_type: number;
    label: string;
    starts_at: Date;
    ends_at: Date;
    created_at: Date;
  };
  cell_orders: {
    id: Generated<number>;
    order_no: string;
    account_id: number;
    line_id: number;
    plan_id: number;
    /** 1 eSIM, 2 physical SIM, 3 plan only */
    card_type: number;
    validity_type: number;
    plan_count: number;
    days: number;
    amount: Minor;
    contact_phone: string;
    contact_email: string | null;
    ledger_id: number;
    period_start: Date;
    period_end: Date;
    created_at: Date;
  };
}
