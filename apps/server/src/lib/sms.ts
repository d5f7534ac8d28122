import { parsePhone } from '@numa/contract';

/**
 * SMS segments (3GPP TS 23.038). A text made only of GSM-7 characters takes 160 septets in one SMS,
 * or 153 per segment when it must be split (the rest carries the concatenation header); characters of
 * the extension table (^ { } \ [ ] ~ | €) take two septets. Any other character makes the whole text
 * UCS-2: 70 UTF-16 code units in one SMS, 67 per segment when split.
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENDED = '\f^{}\\[~]|€';
const basic = new Set(GSM7_BASIC);
const extended = new Set(GSM7_EXTENDED);

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SegmentInfo {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

export function countSegments(text: string): SegmentInfo {
  let septets = 0;
  for (const ch of text) {
    if (basic.has(ch)) septets += 1;
    else if (extended.has(ch)) septets += 2;
    else {
      const units = text.length;
      return { encoding: 'ucs2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: 'gsm7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

export interface PhoneFacts {
  /** Digits, country code first. */
  full: string;
  telCode: string;
  national: string;
  /** ISO alpha-2, or null when the number is valid for a calling code shared by several countries and none matches. */
  country: string | null;
  tollFree: boolean;
}

/** A full number (digits, or with '+') read with libphonenumber's full metadata (the one set everywhere: contract phone.ts); null when not a valid number. */
export function phoneFacts(fullNumber: string): PhoneFacts | null {
  const digits = fullNumber.replace(/[^\d]/g, '');
  if (digits.length < 5 || digits.length > 16) return null;
  const p = parsePhone(digits);
  if (!p || !p.isValid()) return null;
  return {
    full: `${p.countryCallingCode}${p.nationalNumber}`,
    telCode: String(p.countryCallingCode),
    national: String(p.nationalNumber),
    country: p.country ?? null,
    tollFree: p.getType() === 'TOLL_FREE',
  };
}

/**
 * The calling code of a party number, or '' (short codes, sender ids, numbers libphonenumber does
 * not know). Used to split `otherFullNumber` into `otherTelCode` + `otherNumber`.
 */
export function telCodeOf(party: string): string {
  if (!/^\d{5,16}$/.test(party)) return '';
  const p = parsePhone(party);
  return p ? String(p.countryCallingCode) : '';
}
