import { parsePhone } from '@numa/contract';

/**
 * SMS segments (3GPP TS 23.038/23.040), counted the way the carrier splits and bills a text
 * (docs/decisions.md, "Segments, renewals at scale, plan-change keys"). A text made only of GSM-7
 * characters takes 160 septets in one SMS, or 153 per segment when it must be split (the rest carries
 * the concatenation header); a character of the extension table (^ { } \ [ ] ~ | € and form feed)
 * takes two septets, an escape and its code, which never go to two segments: when only one septet is
 * left, the character moves whole to the next segment. Any other character makes the whole text
 * UCS-2: 70 UTF-16 code units in one SMS, 67 per segment when split, and what the reader sees as one
 * character (a grapheme cluster: a surrogate pair, an emoji with its skin tone or its ZWJ sequence, a
 * flag, a letter with its combining marks) is never split either, it moves whole to the next segment,
 * as Twilio does (and Android's own splitter); only a cluster longer than a whole segment is cut, at a
 * code point. So segments are filled character by character, not by dividing a length: `€`×153 is
 * 3 segments, `a`×66 + 😀 + `a`×66 is 3, 😀×100 is 4.
 */
/** The GSM-7 default alphabet (one septet each). */
export const gsm7Basic =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The GSM-7 extension table (two septets each: an escape and the code). */
export const gsm7Extension = '\f^{}\\[~]|€';

/** Septets of each UTF-16 code unit below U+2100 (€ is U+20AC): 1 basic, 2 extension, 0 not GSM-7. */
const septetsOf = new Uint8Array(0x2100);
for (const ch of gsm7Basic) septetsOf[ch.charCodeAt(0)] = 1;
for (const ch of gsm7Extension) septetsOf[ch.charCodeAt(0)] = 2;

const gsm7 = { single: 160, multi: 153 } as const;
const ucs2 = { single: 70, multi: 67 } as const;

export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SegmentInfo {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

/** The segments of a text and its encoding. The send path calls it for every text: plain loops, no allocation for GSM-7. */
export function countSegments(text: string): SegmentInfo {
  let septets = 0;
  let extension = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const w = c < 0x2100 ? septetsOf[c]! : 0;
    if (w === 0) return ucs2Segments(text);
    septets += w;
    if (w === 2) extension = true;
  }
  if (septets <= gsm7.single) return { encoding: 'gsm7', units: septets, segments: 1 };
  if (!extension) return { encoding: 'gsm7', units: septets, segments: Math.ceil(septets / gsm7.multi) };
  let segments = 1;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const w = septetsOf[text.charCodeAt(i)]!;
    if (used + w > gsm7.multi) {
      segments++;
      used = 0;
    }
    used += w;
  }
  return { encoding: 'gsm7', units: septets, segments };
}

let graphemes: Intl.Segmenter | undefined;

/**
 * Code units between which a text always breaks into two characters (UAX #29): ASCII, Latin-1 and
 * Latin Extended below the combining marks, CJK ideographs, Hangul syllables. None extends or joins a
 * neighbour (no Extend, ZWJ, SpacingMark, Prepend, jamo, regional indicator or surrogate), so a
 * segment end between two of them needs no lookup. CR LF is one cluster, but two characters to a
 * carrier (below).
 */
const alwaysApart = (c: number) => c < 0x300 || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3);
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

/**
 * UCS-2: segments of 67 code units, each ending at a grapheme cluster boundary. Only a segment end
 * between code units that might belong together is looked up (Intl.Segmenter's `containing`, from the
 * runtime's ICU), not every cluster of the text.
 */
function ucs2Segments(text: string): SegmentInfo {
  const units = text.length;
  if (units <= ucs2.single) return { encoding: 'ucs2', units, segments: 1 };
  let clusters: Intl.Segments | undefined;
  let segments = 0;
  let start = 0;
  while (start < units) {
    segments++;
    let end = start + ucs2.multi;
    if (end >= units) break;
    if (!alwaysApart(text.charCodeAt(end - 1)) || !alwaysApart(text.charCodeAt(end))) {
      clusters ??= (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text);
      const at = clusters.containing(end)!;
      if (at.index > start) {
        // the cluster that would be cut moves whole to the next segment; CR LF is two characters to a
        // carrier (Twilio's calculator splits it too), so a segment may end between them
        if (!(at.index === end - 1 && at.segment === '\r\n')) end = at.index;
      } else if (isHighSurrogate(text.charCodeAt(end - 1))) {
        // a cluster longer than a segment: cut at a code point
        end--;
      }
    }
    start = end;
  }
  return { encoding: 'ucs2', units, segments };
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

/** Numbers read before (a sender texts the same few numbers): libphonenumber's parse, validation and type of each took most of a send's own work outside the database. */
const factsKept = new Map<string, Readonly<PhoneFacts> | null>();
const factsKeptMax = 10_000;

/** A full number (digits, or with '+') read with libphonenumber's full metadata (the one set everywhere: contract phone.ts); null when not a valid number. */
export function phoneFacts(fullNumber: string): Readonly<PhoneFacts> | null {
  const kept = factsKept.get(fullNumber);
  if (kept !== undefined) return kept;
  const facts = readPhone(fullNumber);
  if (factsKept.size >= factsKeptMax) factsKept.clear();
  factsKept.set(fullNumber, facts);
  return facts;
}

function readPhone(fullNumber: string): Readonly<PhoneFacts> | null {
  const digits = fullNumber.replace(/[^\d]/g, '');
  if (digits.length < 5 || digits.length > 16) return null;
  const p = parsePhone(digits);
  if (!p || !p.isValid()) return null;
  return Object.freeze({
    full: `${p.countryCallingCode}${p.nationalNumber}`,
    telCode: String(p.countryCallingCode),
    national: String(p.nationalNumber),
    country: p.country ?? null,
    tollFree: p.getType() === 'TOLL_FREE',
  });
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
