import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';

/**
 * Phone numbers, one way for the whole product (issue 9, hole 3). Every number the product stores or
 * compares goes through here, on the server and in the web client alike, with ONE metadata set:
 * libphonenumber's full ("max") metadata, so a number valid for the sign-in screen is valid for the
 * server, for `lib/sms.ts` and for the verify modal (the small set once passed `+86 12345678901`
 * that the full set refuses). The rest of the code imports libphonenumber only through this module
 * (an ESLint rule says so).
 *
 * Identity is the E.164 number: `+12125550299` is one number however it was split into a calling code
 * and a national part (`+1 2125550299`, `+12 125550299`, `+121 25550299`, `+1212 5550299`), and it is
 * stored as libphonenumber's split (`telCode` '1', `phone` '2125550299').
 */
export interface NormalPhone {
  /** '+' and digits: `+12125550299`. */
  e164: string;
  /** The country calling code, digits: '1'. */
  telCode: string;
  /** The national significant number, digits: '2125550299'. */
  phone: string;
  /** ISO alpha-2 of the number, or null for a calling code shared by regions none of which matches. */
  country: string | null;
}

const MIN_DIGITS = 5;
const MAX_DIGITS = 16;

/** libphonenumber's reading of `+digits`, or undefined (the raw parse; valid or not). */
export function parsePhone(fullDigits: string): PhoneNumber | undefined {
  const digits = fullDigits.replace(/\D/g, '');
  if (digits.length < MIN_DIGITS || digits.length > MAX_DIGITS) return undefined;
  return parsePhoneNumberFromString(`+${digits}`);
}

const toNormal = (p: PhoneNumber | undefined): NormalPhone | null =>
  p && p.isValid()
    ? {
        e164: p.number,
        telCode: String(p.countryCallingCode),
        phone: String(p.nationalNumber),
        country: p.country ?? null,
      }
    : null;

/** A full number ('+1 212-555-0299', '12125550299') as E.164 and its split; null when not a valid number. */
export function normalizeFullPhone(full: string): NormalPhone | null {
  if (/[^\d\s()+.-]/.test(full)) return null;
  return toNormal(parsePhone(full));
}

/**
 * A calling code and a national part as typed (spaces, dashes, brackets, dots and a leading '+' on the
 * code are dropped) as E.164 and its split; null when the joined number is not valid. A trunk '0'
 * typed before the national part ('+44 07911 123456') is dropped when the number is only valid
 * without it; a leading 0 that belongs to the number (Italy's '+39 06 …') is kept.
 */
export function normalizePhone(telCode: string, phone: string): NormalPhone | null {
  const code = telCode.trim().replace(/^\+/, '');
  const national = phone.replace(/[\s().-]/g, '');
  if (!/^\d{1,4}$/.test(code) || !/^\d+$/.test(national)) return null;
  return (
    toNormal(parsePhone(`${code}${national}`)) ??
    (national.startsWith('0') ? toNormal(parsePhone(`${code}${national.replace(/^0+/, '')}`)) : null)
  );
}
