import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minor, toMinor } from '@numa/contract';
import { formatUnits, parseDecimal } from '../src/providers/payments/decimal';
import { cryptoQuote } from '../src/providers/payments/quote';

/*
 * The crypto quote (issue 18 §6): integer arithmetic, rounded up at the coin's last decimal, so the
 * payer never underpays. Before, it divided floats and rounded with toFixed: 1.005 → "1.00", and
 * 10 USD of ETH at 3000 → "0.00333333", a hair under the order.
 */
describe('the crypto quote', () => {
  it('rounds up at the last decimal, where toFixed rounded a float down', () => {
    expect((1.005).toFixed(2)).toBe('1.00'); // the defect, for the record
    expect(cryptoQuote(minor(10_050), '1', 2)).toBe('1.01');
    expect((10 / 3000).toFixed(8)).toBe('0.00333333');
    expect(cryptoQuote(toMinor(10), '3000', 8)).toBe('0.00333334');
    expect(cryptoQuote(toMinor(200), '3000', 8)).toBe('0.06666667');
  });

  it('leaves an exact quotient as it is', () => {
    expect(cryptoQuote(toMinor(20), '1', 4)).toBe('20.0000');
    expect(cryptoQuote(toMinor(20), '400', 8)).toBe('0.05000000');
    expect(cryptoQuote(toMinor(11.5), '1', 4)).toBe('11.5000');
    expect(cryptoQuote(minor(10_050), '1', 4)).toBe('1.0050');
    expect(cryptoQuote(toMinor(3000), '3000', 8)).toBe('1.00000000');
    expect(cryptoQuote(minor(0), '3000', 8)).toBe('0.00000000');
  });

  it('takes rates with decimals and refuses what is not a plain decimal', () => {
    expect(cryptoQuote(toMinor(100), '3000.5', 8)).toBe('0.03332778');
    expect(cryptoQuote(toMinor(1), '0.25', 4)).toBe('4.0000');
    expect(parseDecimal('0.25')).toEqual({ units: 25n, scale: 2 });
    expect(formatUnits(5n, 3)).toBe('0.005');
    for (const bad of ['', '1e3', '-1', '1.', '.5', 'abc'])
      expect(() => cryptoQuote(toMinor(1), bad, 8)).toThrow();
    expect(() => cryptoQuote(toMinor(1), '0', 8)).toThrow();
    expect(() => cryptoQuote(toMinor(1), '0.000', 8)).toThrow();
  });

  it('never underpays and never asks a whole unit of the last decimal too much (random amounts and rates)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000_000_000 }),
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (amount, rateUnits, rateScale, decimals) => {
          const rate = formatUnits(BigInt(rateUnits), rateScale);
          const quote = cryptoQuote(minor(amount), rate, decimals);
          expect(quote).toMatch(decimals ? new RegExp(`^\\d+\\.\\d{${decimals}}$`) : /^\d+$/);
          // coins × rate ≥ amount, and (coins − one unit of the last decimal) × rate < amount,
          // all scaled to integers: coins = q / 10^d, rate = u / 10^s, amount = a / 10^4
          const q = BigInt(quote.replace('.', ''));
          const paid = q * BigInt(rateUnits) * 10n ** 4n;
          const owed = BigInt(amount) * 10n ** BigInt(decimals + rateScale);
          expect(paid >= owed).toBe(true);
          expect((q - 1n) * BigInt(rateUnits) * 10n ** 4n < owed).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
