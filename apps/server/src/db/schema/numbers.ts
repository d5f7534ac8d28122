import type { Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migration 020 (and later numbers migrations): plans and call records (the subscriptions and their history: rentals.ts). */
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
