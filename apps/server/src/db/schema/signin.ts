import type { Generated } from 'kysely';
import type { BrandId } from '@numa/contract';

/** Migrations 001, 006: sign-in and address-verification codes, captchas, rate events, the dev outbox. */
export interface SigninTables {
  signin_codes: {
    id: Generated<number>;
    brand: BrandId;
    /** login | verify */
    purpose: string;
    address: string;
    /** email | sms */
    channel: string;
    code_hash: string;
    account_id: number | null;
    wrong_tries: Generated<number>;
    created_at: Generated<Date>;
    expires_at: Date;
    consumed_at: Date | null;
    ip: string | null;
  };
  captchas: {
    id: string;
    answer: string;
    created_at: Generated<Date>;
    expires_at: Date;
  };
  rate_events: {
    id: Generated<number>;
    key: string;
    at: Generated<Date>;
  };
  outbox: {
    id: Generated<number>;
    channel: string;
    to_address: string;
    subject: string | null;
    text: string;
    code: string | null;
    created_at: Generated<Date>;
  };
}
