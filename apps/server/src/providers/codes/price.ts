import type { QuotedFee } from './port';

/** Parses `usd=92.5,cny=12.8` values already split by env.ts: supplier units per one unit of ours. */
export type PriceRates = Partial<Record<QuotedFee['currency'], string>>;

const decimal = /^(\d{1,9})(?:\.(\d{1,6}))?$/;

/** A rate as an integer of millionths, exactly (no float). */
function micro(rate: string): bigint | null {
  const m = decimal.exec(rate);
  if (!m) return null;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
}

/**
 * The most a supplier may charge for one number, in its currency with 2 decimals, rounded down: the
 * user's fee times the supplier's rate for the fee's currency. null when no rate is set for it.
 * Integer arithmetic only: fee ten-thousandths × rate millionths → hundredths.
 */
export function maxSupplierPrice(fee: QuotedFee, rates: PriceRates): string | null {
  const rate = rates[fee.currency];
  const r = rate === undefined ? null : micro(rate);
  if (r === null) return null;
  const cents = (BigInt(fee.amount) * r * 100n) / (10_000n * 1_000_000n);
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

/** Whether a supplier's stated cost (its currency) is above the limit sent. */
export const aboveLimit = (cost: number, maxPrice: string): boolean =>
  Math.round(cost * 100) > Math.round(Number(maxPrice) * 100);

/** Validates a rates table at start: every value a positive decimal. */
export function checkRates(name: string, rates: Record<string, string>): PriceRates {
  const out: PriceRates = {};
  for (const [k, v] of Object.entries(rates)) {
    if (k !== 'usd' && k !== 'cny') throw new Error(`${name}: "${k}" is not usd or cny`);
    const r = micro(v);
    if (r === null || r === 0n) throw new Error(`${name}: ${k}=${v} is not a positive decimal`);
    out[k] = v;
  }
  return out;
}
