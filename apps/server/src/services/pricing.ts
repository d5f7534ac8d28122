import {
  brands,
  fromMinor,
  type Brand,
  mulMinor,
  type BrandId,
  type CountryRate,
  type Lang,
  type Minor,
  type RateType,
} from '@numa/contract';
import en from '@numa/contract/locales/en.json' with { type: 'json' };
import zh from '@numa/contract/locales/zh.json' with { type: 'json' };
import type { Database, Tx } from '../db';
import { countSegments } from '../lib/sms';
import { ratesRepo, type RateRow } from '../repositories/rates';

export type { RateRow } from '../repositories/rates';

/** The currency a brand's prices are in: the brand table's `currency.code` (cloud coins on cloudnumber, else USD). */
export type Currency = Brand['currency']['code'];
export const currencyOf = (brand: BrandId): Currency => brands[brand].currency.code;

/**
 * What a rate is per (the `kind` column of rates):
 * - `sms`: one SMS segment sent to a destination country; `mms`: one MMS to it;
 * - `call` / `call_economic`: a minute of an outgoing call to a destination on the common / economic
 *   line (`origin`: the calling number's country, '*' any);
 * - `receive`: a minute of an incoming call on a number of the country (`variant` 'toll_free' for
 *   toll-free numbers);
 * - `number_month`: a month's rent of a number of the country (`variant` 'toll_free' likewise);
 * - `code`: a received verification code, `variant` the app; `code_month`: a month of keeping a
 *   verification number (both from migration 025).
 * - `cell_plan`: a US cell phone plan of the embedded plans page for a validity, `variant`
 *   '<plan code>_<validity type>'; `cell_sim`: its physical SIM kit, `variant` 'physical' (migration 048).
 * A new kind is rows in the table (a migration's data file or the operator's import), not a schema change.
 */
export type RateKind =
  | 'sms'
  | 'mms'
  | 'call'
  | 'call_economic'
  | 'receive'
  | 'number_month'
  | 'code'
  | 'code_month'
  | 'cell_plan'
  | 'cell_sim';

export interface RateQuery {
  /** ISO country (destination, or the number's own); null or undefined: only '*' rows apply. */
  country?: string | null;
  origin?: string | null;
  variant?: string | null;
}

/** The contract's rate tabs (getCountryRates `rateType`) as kinds: the first kind fills commonLineRate, the second economicLineRate. */
const tabKinds: Record<RateType, [RateKind, RateKind?]> = {
  call: ['call', 'call_economic'],
  receive: ['receive'],
  sms: ['sms'],
  number: ['number_month'],
};

/** Names of rate variants, from the contract's locale files. */
const variantNames: Record<string, Record<Lang, string>> = {
  toll_free: { en: en.catalogue.tollFreeRate, zh: zh.catalogue.tollFreeRate },
};

/**
 * The one place that answers "what does this cost for this brand", from the rates table. Message
 * charges are `messageCharge` (the send path reads the rates with its other facts in one statement and
 * hands them here); everything else asks `rate`. Amounts are `Minor` in the brand's currency.
 */
export function createPricing(db: Database) {
  const rate = (brand: BrandId, kind: RateKind, k: RateQuery = {}): Promise<Minor | null> =>
    ratesRepo.rate(db.q, {
      currency: currencyOf(brand),
      kind,
      country: k.country ?? null,
      origin: k.origin ?? null,
      variant: k.variant ?? null,
    });

  return {
    currencyOf,
    rate,

    /** A message's charge and SMS segments from the destination's rates (per segment for SMS, per message for MMS). */
    messageCharge(p: {
      msgType: 'sms' | 'mms';
      text: string | undefined;
      rates: { sms: Minor | null; mms: Minor | null };
    }): { charge: Minor; segments: number } | null {
      if (p.msgType === 'mms') return p.rates.mms === null ? null : { charge: p.rates.mms, segments: 1 };
      if (p.rates.sms === null) return null;
      const segments = countSegments(p.text ?? '').segments;
      return { charge: mulMinor(p.rates.sms, segments), segments };
    },

    /** A month's rent of a number of the country (null: numbers of that country are not offered). */
    numberRent: (brand: BrandId, country: string, tollFree = false) =>
      rate(brand, 'number_month', { country, variant: tollFree ? 'toll_free' : null }),

    /** A minute of an incoming call on a number of the country. */
    receivePerMinute: (brand: BrandId, country: string, tollFree = false) =>
      rate(brand, 'receive', { country, variant: tollFree ? 'toll_free' : null }),

    /** A minute of an outgoing call from a number of `origin` to `country` on a line. */
    callPerMinute: (brand: BrandId, p: { origin: string; country: string; line: 'common' | 'economic' }) =>
      rate(brand, p.line === 'common' ? 'call' : 'call_economic', { country: p.country, origin: p.origin }),

    /** A received verification code of an app in a country (the codes area's rows, kind `code`). */
    codeFee: (brand: BrandId, app: string, country: string) => rate(brand, 'code', { country, variant: app }),

    /**
     * A page of the rates page (getCountryRates): the tab's rates per country in the brand's currency,
     * named and ordered in the caller's language (English alphabetical, Chinese by pinyin; toll-free rows named so).
     */
    async countryRates(p: {
      brand: BrandId;
      rateType: RateType;
      rateCountryCode: string;
      lang: Lang;
      pageNo: number;
      pageSize: number;
    }): Promise<{ totalRows: number; countryRateList: CountryRate[] }> {
      const [kind, kind2] = tabKinds[p.rateType];
      const { total, rows } = await ratesRepo.countryPage(db.q, {
        currency: currencyOf(p.brand),
        kind,
        ...(kind2 ? { kind2 } : {}),
        origin: p.rateCountryCode,
        lang: p.lang,
        limit: p.pageSize,
        offset: (p.pageNo - 1) * p.pageSize,
      });
      return {
        totalRows: total,
        countryRateList: rows.map((r) => {
          const name = p.lang === 'zh' ? r.nameZh : r.nameEn;
          const variant = variantNames[r.variant]?.[p.lang];
          return {
            description: variant ? `${name} (${variant})` : name,
            countryCode: r.telCode,
            commonLineRate: fromMinor(r.primary),
            economicLineRate: kind2 && r.secondary !== null ? fromMinor(r.secondary) : null,
          };
        }),
      };
    },

    /** What an imported rate may name: the kinds and places the table knows (services/ratesCsv.ts). */
    async rateKeys() {
      const k = await ratesRepo.keys(db.q);
      return { kinds: new Set(k.kinds), places: new Set(k.places) };
    },

    /** Every rate (optionally of a currency or a kind), for the operator's export. */
    allRates: (f?: { currency?: string; kind?: string }) => ratesRepo.all(db.q, f),

    /** Writes rates (the operator's import); see ratesRepo.importRates. */
    importRates: (rows: readonly RateRow[], opts?: { replaceKinds?: boolean }) =>
      db.tx((tx: Tx) => ratesRepo.importRates(tx, rows, opts)),
  };
}

export type Pricing = ReturnType<typeof createPricing>;
