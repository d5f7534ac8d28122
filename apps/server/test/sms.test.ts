import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SegmentedMessage } from 'sms-segments-calculator';
import { countSegments, gsm7Basic, gsm7Extension } from '../src/lib/sms';
import { testDbKind } from './helpers';

/**
 * SMS segments against Twilio's own calculator (sms-segments-calculator, MIT): the encoding and the
 * number of segments a text is billed as. Examples at the boundaries, the GSM-7 table character by
 * character, and random texts from GSM-7 basic, extension, BMP non-GSM and astral characters and
 * whole clusters (an emoji with its skin tone, a flag, a ZWJ sequence, combining marks). No database:
 * it runs once, with the PGlite suites.
 */
const twilio = (text: string) => {
  const m = new SegmentedMessage(text);
  return { encoding: m.encodingName === 'GSM-7' ? 'gsm7' : 'ucs2', segments: m.segmentsCount };
};
const ours = (text: string) => {
  const { encoding, segments } = countSegments(text);
  return { encoding, segments };
};

describe.runIf(testDbKind === 'pglite')('countSegments', () => {
  it('fills segments character by character at the boundaries, as Twilio does', () => {
    const cases: [string, string, number][] = [
      ['empty', '', 1],
      ['160 GSM-7', 'a'.repeat(160), 1],
      ['161 GSM-7', 'a'.repeat(161), 2],
      ['306 GSM-7', 'a'.repeat(306), 2],
      ['307 GSM-7', 'a'.repeat(307), 3],
      ['€ × 80: 160 septets', '€'.repeat(80), 1],
      ['€ × 81', '€'.repeat(81), 2],
      // 76 € are 152 septets; the 77th would need 2 of the 1 left, so it starts the next segment
      ['€ × 153', '€'.repeat(153), 3],
      ['a × 152 + €', `${'a'.repeat(152)}€${'a'.repeat(10)}`, 2],
      ['70 UCS-2', '你'.repeat(70), 1],
      ['71 UCS-2', '你'.repeat(71), 2],
      ['134 UCS-2', '你'.repeat(134), 2],
      ['135 UCS-2', '你'.repeat(135), 3],
      // the surrogate pair at units 67–68 moves whole to the second segment
      ['a × 66 + 😀 + a × 66', `${'a'.repeat(66)}😀${'a'.repeat(66)}`, 3],
      ['😀 × 100: 33 a segment', '😀'.repeat(100), 4],
      ['😀 × 35 = 70 units', '😀'.repeat(35), 1],
      // a flag (two regional indicators) and a family (ZWJ sequence) are one character each
      ['a × 65 + flag', `${'a'.repeat(65)}🇺🇸${'a'.repeat(65)}`, 3],
      ['a × 62 + family', `${'a'.repeat(62)}👨‍👩‍👧${'a'.repeat(62)}`, 3],
      ['a × 66 + é (combining)', `${'a'.repeat(66)}e\u0301${'a'.repeat(66)}`, 3],
      // CR LF is two characters to the carrier: a segment may end between them
      ['CR LF at the boundary (UCS-2)', `你${'a'.repeat(65)}\r\n${'a'.repeat(66)}`, 2],
    ];
    for (const [name, text, segments] of cases) {
      expect({ name, ...ours(text) }).toEqual({ name, ...twilio(text) });
      expect({ name, segments: ours(text).segments }).toEqual({ name, segments });
    }
  });

  it('has the GSM-7 basic and extension tables of the calculator, character by character', () => {
    const mismatched: string[] = [];
    for (let c = 0; c < 0x2200; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      const a = countSegments(ch);
      const b = new SegmentedMessage(ch);
      const theirs = b.encodingName === 'GSM-7' ? { encoding: 'gsm7', units: b.numberOfCharacters } : null;
      const mine = a.encoding === 'gsm7' ? { encoding: 'gsm7', units: a.units } : null;
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) mismatched.push(`U+${c.toString(16)}`);
    }
    expect(mismatched).toEqual([]);
    expect(gsm7Basic.length + gsm7Extension.length).toBe(137);
  });

  const codePoints = (from: number, to: number) =>
    fc.integer({ min: from, max: to }).map((c) => String.fromCodePoint(c));
  const basic = fc.constantFrom(...gsm7Basic);
  const extension = fc.constantFrom(...gsm7Extension);
  // letters and punctuation outside GSM-7 that no neighbour joins to: Greek small, Cyrillic, Hebrew,
  // Arabic, CJK, Hangul syllables, typographic quotes and dashes
  const bmp = fc.oneof(
    codePoints(0x3b1, 0x3c9),
    codePoints(0x410, 0x44f),
    codePoints(0x5d0, 0x5ea),
    codePoints(0x627, 0x64a),
    codePoints(0x4e00, 0x9fff),
    codePoints(0xac00, 0xd7a3),
    fc.constantFrom('“', '”', '‘', '’', '–', '—', '…', 'ç', '✓'),
  );
  // astral: emoji (without the skin-tone modifiers, which only come whole with their base below),
  // transport symbols, CJK extension B
  const astral = fc.oneof(
    codePoints(0x1f600, 0x1f64f),
    codePoints(0x1f300, 0x1f3fa),
    codePoints(0x1f400, 0x1f5ff),
    codePoints(0x1f680, 0x1f6c5),
    codePoints(0x20000, 0x2a6df),
  );
  // whole clusters of several code points (where Unicode's grapheme rules have not changed since the
  // calculator's splitter, Unicode 10; docs/decisions.md says which sequences differ)
  const cluster = fc.constantFrom(
    'e\u0301',
    'a\u0300\u0323',
    '❤\uFE0F',
    '👍🏽',
    '👋🏿',
    '✋🏽',
    '🇺🇸',
    '🇯🇵',
    '🇫🇷',
    '👨\u200D👩\u200D👧',
    '👨\u200D❤\uFE0F\u200D👨',
    '👩\u200D💻',
    '🏳\uFE0F\u200D🌈',
    '\u1100\u1161\u11A8',
  );
  const text = (parts: fc.Arbitrary<string>, maxLength: number) =>
    fc.array(parts, { maxLength, size: 'max' }).map((a) => a.join(''));

  it('agrees with the calculator on random GSM-7 texts (basic and extension)', () => {
    // each text has its own share of extension characters, from none to nearly all (`€`×153 among them)
    const gsm = fc
      .integer({ min: 0, max: 20 })
      .chain((share) =>
        text(
          fc.oneof({ arbitrary: basic, weight: 20 - share + 1 }, { arbitrary: extension, weight: share }),
          800,
        ),
      );
    fc.assert(
      fc.property(gsm, (t) => {
        expect(ours(t)).toEqual(twilio(t));
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });

  it('agrees with the calculator on random texts of every kind of character', () => {
    const any = fc.oneof(
      { arbitrary: basic, weight: 8 },
      { arbitrary: extension, weight: 1 },
      { arbitrary: bmp, weight: 2 },
      { arbitrary: astral, weight: 2 },
      { arbitrary: cluster, weight: 1 },
    );
    fc.assert(
      fc.property(text(any, 800), (t) => {
        expect(ours(t)).toEqual(twilio(t));
      }),
      // a failure is reported as found: shrinking through the calculator takes minutes
      { numRuns: 300, endOnFailure: true },
    );
  });
});
