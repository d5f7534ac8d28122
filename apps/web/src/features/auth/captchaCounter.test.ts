import { beforeEach, describe, expect, it } from 'vitest';
import { clearFailures, lockedFor, LOCK_MS, recordFailure } from './captchaCounter';

describe('captcha failure counter (spec 001 §8)', () => {
  beforeEach(() => clearFailures());

  it('locks on the third failure and unlocks after the lock time', () => {
    const now = 1_800_000_000_000;
    expect(recordFailure(now)).toBe(false);
    expect(document.cookie).toContain('numa_captcha_failures=1');
    expect(recordFailure(now)).toBe(false);
    expect(document.cookie).toContain('numa_captcha_failures=2');
    expect(recordFailure(now)).toBe(true);
    expect(lockedFor(now + 1000)).toBe(LOCK_MS - 1000);
    expect(lockedFor(now + LOCK_MS + 1)).toBe(0);
  });

  it('a success clears the counter', () => {
    recordFailure();
    clearFailures();
    expect(document.cookie).not.toContain('numa_captcha_failures=1');
    expect(lockedFor()).toBe(0);
  });
});
