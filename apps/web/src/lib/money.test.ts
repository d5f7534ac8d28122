import { describe, expect, it } from 'vitest';
import { bonusMoney, money } from './money';

describe('bonus amounts (issue 13 §3.7)', () => {
  it('reads as the spec writes it, while balances keep the brand decimals', () => {
    expect(bonusMoney(0.2)).toBe('0.2 Coins');
    expect(bonusMoney(1)).toBe('1 Coins');
    expect(bonusMoney(0.125)).toBe('0.125 Coins');
    expect(money(0.2)).toBe('0.2000 Coins');
  });
});
