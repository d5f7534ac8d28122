import { describe, expect, it } from 'vitest';
import { checkEmail, checkPhone, cleanTelCode } from './logic';

describe('verify step 1', () => {
  it('keeps the country code to 4 digits', () => {
    expect(cleanTelCode('+1234')).toBe('1234');
    expect(cleanTelCode('12345')).toBe('1234');
    expect(cleanTelCode('+44 ')).toBe('44');
  });
  it('asks for the country code, then the number, then a possible number', () => {
    expect(checkPhone('', '4155550100')).toEqual({ ok: false, field: 'telCode', error: 'telCodeRequired' });
    expect(checkPhone('1', '  ')).toEqual({ ok: false, field: 'phone', error: 'phoneRequired' });
    expect(checkPhone('1', '12')).toEqual({ ok: false, field: 'phone', error: 'phoneInvalid' });
    expect(checkPhone('1', 'abc')).toEqual({ ok: false, field: 'phone', error: 'phoneInvalid' });
  });
  it('cleans what people type around a number', () => {
    expect(checkPhone('+1', '(415) 555-0100')).toEqual({ ok: true, telcode: '1', phone: '4155550100' });
    expect(checkPhone('44', '07911 123456')).toEqual({ ok: true, telcode: '44', phone: '7911123456' });
  });
  it('asks for the e-mail address, then a well-formed one', () => {
    expect(checkEmail(' ')).toEqual({ ok: false, field: 'email', error: 'emailRequired' });
    expect(checkEmail('a@b')).toEqual({ ok: false, field: 'email', error: 'emailInvalid' });
    expect(checkEmail(' Ann@Example.COM ')).toEqual({ ok: true, email: 'ann@example.com' });
  });
});
