import { describe, expect, it } from 'vitest';
import {
  chooseFromEntry,
  cleanEntry,
  formatFullNumber,
  internationalEntry,
  isValidFullNumber,
  nationalPart,
  ownFullNumber,
  regionOf,
  splitFullNumber,
} from './number';

describe('other-party number entry (spec 000 §5)', () => {
  it('trims and removes spaces, dashes and parentheses, keeping the last 11 characters', () => {
    expect(cleanEntry('  (415) 555-0102 ')).toBe('4155550102');
    expect(cleanEntry('1 (415) 555-0102')).toBe('14155550102');
    expect(cleanEntry('0086 138 0013 8000')).toBe('13800138000');
    expect(cleanEntry('123456789012345')).toBe('56789012345');
  });

  it('drops the leading 1 of an 11-digit entry for a +1 own number', () => {
    expect(nationalPart('1 415 555 0102', '1', '1')).toBe('4155550102');
    expect(nationalPart('14155550102', '1', '1')).toBe('4155550102');
    // not 11 digits, or not +1 on both sides: kept as typed
    expect(nationalPart('1415555010', '1', '1')).toBe('1415555010');
    expect(nationalPart('14155550102', '44', '1')).toBe('14155550102');
    expect(nationalPart('14155550102', '1', '44')).toBe('14155550102');
  });

  it('needs at least 5 digits before a person is chosen', () => {
    expect(chooseFromEntry('', '1', '1')).toEqual({ kind: 'empty' });
    expect(chooseFromEntry('   ', '1', '1')).toEqual({ kind: 'empty' });
    expect(chooseFromEntry('4155', '1', '1')).toEqual({ kind: 'short' });
    expect(chooseFromEntry('41a55550', '1', '1')).toEqual({ kind: 'short' });
  });

  it('needs a valid number of the chosen country', () => {
    expect(chooseFromEntry('55555', '1', '1')).toEqual({ kind: 'invalid' });
    expect(chooseFromEntry('0123456789', '1', '1')).toEqual({ kind: 'invalid' });
  });

  it('chooses the full number, tel code and short phone', () => {
    expect(chooseFromEntry('+1 (415) 555-0102'.slice(3), '1', '1')).toEqual({
      kind: 'ok',
      person: { name: '', phone: '14155550102', telCode: '1', shortPhone: '4155550102' },
    });
    expect(chooseFromEntry('1-415-555-0102', '1', '1', 'Ana')).toEqual({
      kind: 'ok',
      person: { name: 'Ana', phone: '14155550102', telCode: '1', shortPhone: '4155550102' },
    });
    expect(chooseFromEntry('20 7946 0958', '44', '1')).toMatchObject({
      kind: 'ok',
      person: { phone: '442079460958', telCode: '44' },
    });
  });

  it('reads an entry typed with its own country code', () => {
    expect(internationalEntry('+44 20 7946 0958')).toEqual({
      telCode: '44',
      region: 'GB',
      national: '2079460958',
    });
    expect(internationalEntry('0061 2 9876 5432')).toMatchObject({ telCode: '61', national: '298765432' });
    expect(internationalEntry('415 555 0102')).toBeNull();
  });

  it('formats and splits full numbers; sender ids stay as they are', () => {
    expect(formatFullNumber('14155550102')).toBe('+1 415 555 0102');
    expect(formatFullNumber('GOOGLE')).toBe('GOOGLE');
    expect(formatFullNumber('22000')).toBe('22000');
    expect(splitFullNumber('442079460958')).toEqual({ telCode: '44', national: '2079460958' });
    expect(splitFullNumber('22000')).toEqual({ telCode: '', national: '22000' });
    expect(regionOf('14155550102')).toBe('US');
    expect(isValidFullNumber('14155550102')).toBe(true);
    expect(isValidFullNumber('1415')).toBe(false);
  });

  it('joins an own number from its tel code and national part', () => {
    expect(ownFullNumber({ telCode: '1', phone: '4155550101' })).toBe('14155550101');
    expect(ownFullNumber({ telCode: '44', phone: '442079460958' })).toBe('442079460958');
  });
});
