import type { ColumnType, Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migration 020 (and later numbers migrations): plans, number subscriptions, subscription history, call records. */
export interface NumbersTables {
  plans: {
    id: number;
    /** US | CA | GB | AU | TollFree */
    country: string;
    /** local | mobile | tollFree */
    kind: string;
    /** unlimited | unlimitedVoice | unlimitedTexts | payAsYouGo */
    plan_group: string;
    /** month | quarter | year */
    period: string;
    charge_type: number;
    can_forward: boolean;
    can_voicemail: boolean;
    activation_fee: Generated<Minor>;
    sort: number;
    active: Generated<boolean>;
  };
  number_subscriptions: {
    number_id: number;
    account_id: number;
    plan_id: number;
    auto_renew: Generated<boolean>;
    pending_plan_id: number | null;
    /** a date: read it with to_char */
    grace_since: ColumnType<Date | null, string | null, string | null>;
    created_at: Generated<Date>;
  };
  subscription_history: {
    id: Generated<number>;
    account_id: number;
    tel_code: string;
    number: string;
    full_number: string;
    type: number;
    charge: Generated<Minor>;
    plan_id: number | null;
    ledger_id: number | null;
    /** a date: read it with to_char */
    res_date: ColumnType<Date | null, string | null, string | null>;
    restored: Generated<boolean>;
    created_at: Date;
  };
  call_records: {
    id: Generated<number>;
    account_id: number;
    direction: 'in' | 'out';
    from_number: string;
    to_number: string;
    duration: number;
    billing_duration: number;
    tariff_id: Generated<number>;
    /** voice | forward | voicemail */
    type: string;
    charge: Generated<Minor>;
    ledger_id: number | null;
    carrier_id: string;
    created_at: Date;
  };
}
