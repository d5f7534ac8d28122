import { describe, expect, it } from 'vitest';
import en from '../src/locales/en.json' with { type: 'json' };
import zh from '../src/locales/zh.json' with { type: 'json' };
import { R, httpStatusOf, isSessionCode, isSilent, retcodeTable, retmsg, sessionCodes } from '../src/index';

const codes = Object.keys(retcodeTable).map(Number);
const enTexts = en.retcode as Record<string, string>;
const zhTexts = zh.retcode as Record<string, string>;

/** The silent list of spec 000 §8 and spec 001 §8 (200040 to 200047 spelled out). */
const specSilent = [
  100000, 100004, 100006, 100010, 100015, 100020, 100023, 100025, 100028, 200025, 200040, 200041, 200042,
  200043, 200044, 200045, 200046, 200047, 300002, 300033, 400000, 400001, 500000, 600000, 600002,
];

describe('retcode table', () => {
  it('has an English and a Chinese message for every code but 0', () => {
    for (const code of codes.filter((c) => c !== 0)) {
      expect(enTexts[String(code)]?.trim(), `en ${code}`).toBeTruthy();
      expect(zhTexts[String(code)]?.trim(), `zh ${code}`).toBeTruthy();
    }
  });

  it('has no message for a code missing from the table', () => {
    for (const key of [...Object.keys(enTexts), ...Object.keys(zhTexts)])
      expect(codes, key).toContain(Number(key));
  });

  it('has every code of the silent lists, marked silent', () => {
    for (const code of specSilent) {
      expect(codes, String(code)).toContain(code);
      expect(isSilent(code), String(code)).toBe(true);
    }
  });

  it('also knows the loud codes the spec names', () => {
    for (const code of [100008, 100012, 100013, 100014, 200018, 300030]) expect(codes).toContain(code);
    expect(isSilent(100012)).toBe(false);
  });

  it('sends only the agreed HTTP statuses', () => {
    const allowed = [200, 400, 401, 403, 404, 429, 500];
    for (const code of codes) expect(allowed, String(code)).toContain(httpStatusOf(code));
    expect(httpStatusOf(0)).toBe(200);
    expect(httpStatusOf(123456)).toBe(500);
  });

  it('maps the session codes as spec 000 §4 says', () => {
    expect(sessionCodes).toEqual({
      100008: 'markKicked',
      100012: 'logout',
      100013: 'logout',
      100014: 'logout',
      200018: 'logout',
    });
    for (const code of [100012, 100013, 100014, 200018]) {
      expect(isSessionCode(code)).toBe(true);
      expect(httpStatusOf(code)).toBe(401);
    }
    expect(isSessionCode(400001)).toBe(false);
  });

  it('has unique keys, and R maps them back', () => {
    const keys = codes.map((c) => retcodeTable[c as keyof typeof retcodeTable].key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(R.tokenInvalid).toBe(100012);
    expect(R.insufficientBalance).toBe(400001);
  });

  it('gives messages by language, falling back to English', () => {
    expect(retmsg(400001, 'en')).toBe(enTexts['400001']);
    expect(retmsg(400001, 'zh')).toBe(zhTexts['400001']);
    expect(retmsg(400001, 'zh')).not.toBe(retmsg(400001, 'en'));
    expect(retmsg(987654, 'en')).toBe(enTexts['100000']);
  });
});
