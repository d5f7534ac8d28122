import { describe, expect, it } from 'vitest';
import { normalizeFullPhone, normalizePhone } from '../src/phone';

describe('phones: one E.164 split for server and client (issue 9, hole 3)', () => {
  it('gives every split of one number the same E.164 number and calling-code split', () => {
    const want = { e164: '+12125550299', telCode: '1', phone: '2125550299', country: 'US' };
    for (const [code, national] of [
      ['1', '2125550299'],
      ['12', '125550299'],
      ['121', '25550299'],
      ['1212', '5550299'],
      ['+1', '(212) 555-0299'],
    ] as const)
      expect(normalizePhone(code, national)).toEqual(want);
    expect(normalizeFullPhone('+1 212-555-0299')).toEqual(want);
  });

  it('drops a typed trunk 0 only when the number needs it dropped, and refuses what the full metadata refuses', () => {
    expect(normalizePhone('44', '07911 123456')).toMatchObject({
      e164: '+447911123456',
      phone: '7911123456',
    });
    expect(normalizePhone('39', '0612345678')).toMatchObject({ e164: '+390612345678', phone: '0612345678' });
    expect(normalizePhone('86', '12345678901')).toBeNull();
    expect(normalizePhone('1', '12345')).toBeNull();
    expect(normalizePhone('abc', '2125550299')).toBeNull();
    expect(normalizeFullPhone('+1 212 555 0299; DROP')).toBeNull();
  });
});
