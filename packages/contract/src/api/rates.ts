import { z } from 'zod';
import { CountryCode, Money, qPageNo, qPageSize } from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

export const RateType = z.enum(constants.rateTypes);
export type RateType = z.infer<typeof RateType>;

/**
 * A country rate (spec 001 §3). `description` is the destination's name in the caller's language;
 * `countryCode` its calling code (digits). Decided: per `rateType`,
 * - call: per minute from a `rateCountryCode` number to this destination, on the common and the
 *   economic line;
 * - receive: per minute of an incoming call on a number of this country (economicLineRate null);
 * - sms: per SMS sent to this destination (economicLineRate null);
 * - number: the monthly rent of a number of this country (economicLineRate null).
 */
export const CountryRate = z.object({
  description: z.string(),
  countryCode: z.string().regex(/^\d{1,4}$/),
  commonLineRate: Money,
  economicLineRate: Money.nullable(),
});
export type CountryRate = z.infer<typeof CountryRate>;

/**
 * Rates (spec 001 §2 Rates page, §7). Decided: the spec's parameters plus `rateType`, one per page
 * tab (default `call`, Make Call). Works anonymously (the page loads account data only when signed in).
 */
export const getCountryRates = defineEndpoint({
  name: 'getCountryRates',
  method: 'GET',
  path: '/web/getCountryRates',
  access: 'optional',
  summary: 'A page of per-country rates for calls, received calls, SMS or number rental.',
  input: z.strictObject({
    rateCountryCode: CountryCode.default(constants.defaultRateCountry),
    rateType: RateType.default('call'),
    pageSize: qPageSize(constants.pageSize.rates),
    pageNo: qPageNo,
  }),
  output: z.object({ totalRows: z.number().int().nonnegative(), countryRateList: z.array(CountryRate) }),
});
