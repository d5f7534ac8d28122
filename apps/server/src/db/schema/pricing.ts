import type { Generated } from 'kysely';
import type { Minor } from '@numa/contract';

/** Migrations 008, 009: countries (names in both languages) and the one rates table. */
export interface PricingTables {
  countries: {
    /** ISO 3166-1 alpha-2 */
    code: string;
    /** calling code, digits */
    tel_code: string;
    name_en: string;
    name_zh: string;
    /** list positions by name: English alphabetical, Chinese by pinyin */
    sort_en: number;
    sort_zh: number;
  };
  rates: {
    /** usd (Coins and dollars) | cny (cloud coins) */
    currency: string;
    /** sms | mms | call | call_economic | receive | number_month | … (pricing.ts RateKind) */
    kind: string;
    /** where from ('*': anywhere): the own number's country for calls */
    origin: Generated<string>;
    /** the destination (sms, mms, call) or the number's country (receive, number_month); '*': any other */
    country: string;
    /** a finer key ('*': any): the number type for receive and rent (toll_free), the app for code fees */
    variant: Generated<string>;
    /** ten-thousandths per unit of the kind (segment, message, minute, month) */
    amount: Minor;
    updated_at: Generated<Date>;
  };
}
