import { describe, expect, it } from 'vitest';
import { billTypeLabel, billTypeName, constants } from '../src';

describe('bill types', () => {
  it('have a name and a label in English and Chinese each (the bill history, its CSV)', () => {
    for (const [name, type] of Object.entries(constants.billTypes)) {
      expect(billTypeName(type)).toBe(name);
      for (const lang of ['en', 'zh'] as const)
        expect(billTypeLabel(type, lang), `${lang} ${name}`).not.toBe(name);
      expect(billTypeLabel(type, 'en')).not.toBe(billTypeLabel(type, 'zh'));
    }
    expect(billTypeLabel(constants.billTypes.chargeback, 'en')).toBe('Chargeback');
    expect(billTypeLabel(constants.billTypes.topUpRefund, 'zh')).toBe('充值退款');
    expect(billTypeName(99)).toBeUndefined();
    expect(billTypeLabel(99, 'en')).toBe('99');
  });
});
