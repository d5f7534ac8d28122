import type { Brand } from './brands';
import type { Lang } from './common';

declare const minorBrand: unique symbol;

/**
 * Money as the server keeps it: an integer number of ten-thousandths of the brand's unit (Coins,
 * dollars or cloud coins). The database stores it as bigint; arithmetic on balances and charges is
 * done on `Minor` only, never on the API's decimal numbers. A plain number is not a `Minor`: amounts
 * become one through `minor` (an integer already in ten-thousandths) or `toMinor` (an API amount).
 *
 * This module holds the only conversions between the two (to and from API numbers, display
 * rounding); nothing else multiplies or divides by 10,000.
 */
export type Minor = number & { readonly [minorBrand]: true };

/** Ten-thousandths per unit. */
export const minorPerUnit = 10_000;

/** An integer count of ten-thousandths as a `Minor` (throws on a fraction or an unsafe integer). */
export function minor(n: number | bigint): Minor {
  const v = typeof n === 'bigint' ? Number(n) : n;
  if (!Number.isSafeInteger(v)) throw new RangeError(`not a whole number of ten-thousandths: ${String(n)}`);
  return (v === 0 ? 0 : v) as Minor;
}

export const zeroMinor = minor(0);

/** An API amount in the unit (up to 4 decimals) to ten-thousandths, rounded half away from zero. */
export function toMinor(amount: number): Minor {
  if (!Number.isFinite(amount)) throw new RangeError(`not an amount: ${amount}`);
  // toFixed(6) first: 0.1 * 10000 is 1000.0000000000001, which must not round away from 1000
  const scaled = Number((Math.abs(amount) * minorPerUnit).toFixed(6));
  return minor(Math.sign(amount) * Math.round(scaled));
}

/** Ten-thousandths to the API's number in the unit (IEEE division is correctly rounded: 123456 → 12.3456). */
export const fromMinor = (m: Minor | bigint): number => {
  const v = Number(m) / minorPerUnit;
  return v === 0 ? 0 : v;
};

export const addMinor = (...xs: Minor[]): Minor => minor(xs.reduce((a, b) => a + b, 0));
export const subMinor = (a: Minor, b: Minor): Minor => minor(a - b);
export const negMinor = (a: Minor): Minor => minor(-a);
/** A price times a whole count (segments, minutes, months). */
export const mulMinor = (a: Minor, count: number): Minor => {
  if (!Number.isInteger(count)) throw new RangeError(`count must be whole: ${count}`);
  return minor(a * count);
};

/** Display rounding to `decimals` places (0–4), half away from zero, still in ten-thousandths. */
export function roundMinor(m: Minor, decimals: number): Minor {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 4)
    throw new RangeError(`decimals 0–4: ${decimals}`);
  const step = 10 ** (4 - decimals);
  return minor(Math.sign(m) * Math.round(Math.abs(m) / step) * step);
}

/** "12.3456 Coins", "$12.3456", "-0.50 云币" (spec: 4 decimals, 2 for cloudnumber; minus for negatives). */
export function formatMoney(
  brand: Brand,
  amount: number,
  lang: Lang,
  decimals: number = brand.currency.decimals,
): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount).toFixed(decimals);
  const { symbol, label } = brand.currency;
  return symbol ? `${sign}${symbol}${abs}` : `${sign}${abs} ${label[lang]}`;
}

/** A `Minor` shown like formatMoney, rounded in integers first (no float rounding surprises). */
export const formatMinor = (
  brand: Brand,
  m: Minor,
  lang: Lang,
  decimals: number = brand.currency.decimals,
): string => formatMoney(brand, fromMinor(roundMinor(m, decimals)), lang, decimals);
