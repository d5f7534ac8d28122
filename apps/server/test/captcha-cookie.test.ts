import { describe, expect, it } from 'vitest';
import { captchaFailureCookie } from '../src/lib/cookies';

describe('the captcha failure cookie (spec 001 §8)', () => {
  const value = (setCookie: string) => /^numa_captcha_failures=([^;]*)/.exec(setCookie)?.[1];

  it('counts 1, 2, then holds the time of the lock; a right answer clears it', () => {
    const now = 1_800_000_000_000;
    const first = captchaFailureCookie(undefined, now);
    expect(value(first)).toBe('1');
    const second = captchaFailureCookie(`other=x; numa_captcha_failures=${value(first)}`, now);
    expect(value(second)).toBe('2');
    const third = captchaFailureCookie(`numa_captcha_failures=${value(second)}`, now);
    expect(value(third)).toBe(String(now));
    expect(third).toMatch(/; Max-Age=600$/);
    expect(captchaFailureCookie(`numa_captcha_failures=${now}`, null)).toMatch(
      /^numa_captcha_failures=; .*Max-Age=0$/,
    );
  });

  it('starts again after a lock and ignores a value it did not write', () => {
    const now = 1_800_000_000_000;
    expect(value(captchaFailureCookie(`numa_captcha_failures=${now - 1}`, now))).toBe('1');
    expect(value(captchaFailureCookie('numa_captcha_failures=abc', now))).toBe('1');
  });
});
