import { minorPerUnit, type Minor } from '@numa/contract';
import { formatUnits, parseDecimal } from './decimal';

/**
 * What a crypto transfer must send for a top-up at a rate we quote ourselves (the sandbox's rates;
 * a processor such as BTCPay quotes its own): `amount` (Minor, ten-thousandths of the legal money)
 * divided by `rate` (legal money per coin, decimal text), in coins with `decimals` decimals, as text.
 * Integer arithmetic throughout (BigInt, decimal.ts): no float ever sees the amount, so 1.005 stays
 * 1.005. Rounding: UP (toward the payer paying more) at the last decimal shown, so the payer can
 * never underpay the order; what they may pay over is less than one unit of that decimal
 * (0.00000001 ETH, 0.0001 USDT). An exact quotient is left as it is.
 */
export function cryptoQuote(amount: Minor, rate: string, decimals: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`bad amount ${amount}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18)
    throw new RangeError(`bad decimals ${decimals}`);
  const r = parseDecimal(rate);
  if (!r || r.units <= 0n) throw new RangeError(`not a rate: ${JSON.stringify(rate)}`);
  // coins = (amount / 10^4) / (units / 10^scale); scaled by 10^decimals
  const numerator = BigInt(amount) * 10n ** BigInt(r.scale + decimals);
  const denominator = BigInt(minorPerUnit) * r.units;
  return formatUnits((numerator + denominator - 1n) / denominator, decimals);
}
