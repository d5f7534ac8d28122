import type { ColumnType, Generated } from 'kysely';
import type { AddressBook, BrandId } from '@numa/contract';

/** Migration 005: address book, address verifications, billing profile, identity documents, invites. */
export interface AccountAreaTables {
  contacts: {
    id: string;
    account_id: number;
    /** the validated contact, written as JSON text */
    book: ColumnType<AddressBook, string, string>;
    local_id: Generated<string>;
    date: number;
    created_at: Generated<Date>;
  };
  address_verifications: {
    id: string;
    account_id: number;
    brand: BrandId;
    /** sms | email */
    channel: string;
    tel_code: string | null;
    phone: string | null;
    email: string | null;
    created_at: Generated<Date>;
    validated_at: Date | null;
    used_at: Date | null;
  };
  billing_profiles: {
    account_id: number;
    first_name: string;
    last_name: string;
    address: string;
    city: string;
    province: string;
    postal_code: string;
    country: string;
    region_code: Generated<string>;
    status: number;
    refuse_reason: Generated<string>;
    submitted_at: Generated<Date>;
    reviewed_at: Date | null;
  };
  kyc_submissions: {
    account_id: number;
    id_card_1: string | null;
    id_card_2: string | null;
    id_hold_1: string | null;
    id_hold_2: string | null;
    status: number;
    refuse_reason: Generated<string>;
    submitted_at: Generated<Date>;
    reviewed_at: Date | null;
  };
  invite_codes: {
    account_id: number;
    brand: BrandId;
    code: string;
    created_at: Generated<Date>;
  };
  invite_redemptions: {
    redeemer_id: number;
    inviter_id: number;
    brand: BrandId;
    code: string;
    created_at: Generated<Date>;
    bonus_paid_at: Date | null;
    /** The redeemer's E.164 number at the redemption (migration 014): one bonus per number and brand. */
    redeemer_phone: string | null;
  };
}
