import { constants } from '@numa/contract';
import { parsePhone } from '@numa/contract';
import { formatFullNumber, keptByText } from '../../../lib/phone';

export { formatFullNumber };

/** The person a chat is with (spec 000 §3 Chosen person). `phone` is the full number, digits only. */
export interface ChosenPerson {
  name: string;
  phone: string;
  telCode: string;
  shortPhone: string;
}

/**
 * The other-party field, cleaned (spec 000 §5): trimmed, spaces, dashes and parentheses removed, only
 * the last 11 characters kept.
 */
export function cleanEntry(raw: string): string {
  const cleaned = raw.trim().replace(/[\s\-()]/g, '');
  return cleaned.slice(-constants.phoneKeepLastChars);
}

/**
 * The national part of an entry for a To country code (spec 000 §5): cleaned; for a +1 own number an
 * 11-digit entry starting with 1 drops that 1. Decided: the drop applies only while the To country code
 * is +1 too (a +1 sender writing to +44 keeps what they typed).
 */
export function nationalPart(raw: string, toTelCode: string, ownTelCode: string): string {
  let digits = cleanEntry(raw);
  if (ownTelCode === '1' && toTelCode === '1' && /^1\d{10}$/.test(digits)) digits = digits.slice(1);
  return digits;
}

/** A full number (digits) is a real number of its country (libphonenumber). */
export function isValidFullNumber(full: string): boolean {
  if (!/^\d{5,16}$/.test(full)) return false;
  return parsePhone(full)?.isValid() ?? false;
}

/**
 * An entry typed with its own country code ("+44 20 7946 0958", "0044…"): the country it names and its
 * national part, so the To field follows a pasted international number. Null for national entries.
 */
export function internationalEntry(
  raw: string,
): { telCode: string; region: string | null; national: string } | null {
  const t = raw.trim().replace(/[\s\-().]/g, '');
  const m = /^(?:\+|00)(\d{5,16})$/.exec(t);
  if (!m) return null;
  const parsed = parsePhone(m[1] ?? '');
  if (!parsed) return null;
  return {
    telCode: parsed.countryCallingCode,
    region: parsed.country ?? null,
    national: parsed.nationalNumber,
  };
}

export type EntryResult =
  | { kind: 'empty' }
  /** Fewer than 5 digits, or not only digits: no chosen person yet. */
  | { kind: 'short' }
  /** Enough digits, but not a number of that country. */
  | { kind: 'invalid' }
  | { kind: 'ok'; person: ChosenPerson };

/**
 * What the To field chooses (spec 000 §5): a chat target only with at least 5 digits and a valid
 * number; otherwise the chosen person is cleared.
 */
export function chooseFromEntry(raw: string, toTelCode: string, ownTelCode: string, name = ''): EntryResult {
  if (!raw.trim()) return { kind: 'empty' };
  const shortPhone = nationalPart(raw, toTelCode, ownTelCode);
  if (!/^\d+$/.test(shortPhone) || shortPhone.length < constants.phoneMinDigits) return { kind: 'short' };
  const phone = `${toTelCode}${shortPhone}`;
  if (!isValidFullNumber(phone)) return { kind: 'invalid' };
  return { kind: 'ok', person: { name, phone, telCode: toTelCode, shortPhone } };
}

/** The region (ISO code) of a full number, for the country-code picker; null when unknown. */
export function regionOf(full: string): string | null {
  return parsePhone(full)?.country ?? null;
}

const splitKept = keptByText((full): Readonly<{ telCode: string; national: string }> => {
  if (!/^\d{5,16}$/.test(full)) return { telCode: '', national: full };
  const parsed = parsePhone(full);
  if (!parsed?.isValid()) return { telCode: '', national: full };
  return { telCode: parsed.countryCallingCode, national: parsed.nationalNumber };
});

/**
 * The country code and national part of a valid full number; a sender id, short code or number that is
 * not valid has neither ('' and itself).
 */
export function splitFullNumber(full: string): { telCode: string; national: string } {
  return { ...splitKept(full) };
}

/**
 * The full number of an own (virtual) number. Decided reading of `{telCode, phone}`: `phone` is the
 * national part; a `phone` that already carries its country code is taken as it is.
 */
export function ownFullNumber(vp: { telCode: string; phone: string }): string {
  const joined = `${vp.telCode}${vp.phone}`;
  if (vp.phone.startsWith(vp.telCode) && !isValidFullNumber(joined) && isValidFullNumber(vp.phone))
    return vp.phone;
  return joined;
}
