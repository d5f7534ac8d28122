import { afterEach, describe, expect, it } from 'vitest';
import { constants } from '@numa/contract';
import { lockedFor } from './captchaCounter';

// the cookie as the server writes it (apps/server/src/lib/cookies.ts captchaFailureCookie)
const serverSets = (value: string, maxAge = constants.captchaLockMs / 1000) =>
  (document.cookie = `${constants.captchaFailuresCookie}=${value}; path=/; max-age=${maxAge}`);

describe('captcha failure counter (spec 001 §8)', () => {
  afterEach(() => serverSets('', 0));

  it('is not locked while the cookie holds a count', () => {
    expect(lockedFor()).toBe(0);
    serverSets('2');
    expect(lockedFor()).toBe(0);
  });

  it('is locked from the time the third failure wrote until the lock time has passed', () => {
    const at = 1_800_000_000_000;
    serverSets(String(at));
    expect(lockedFor(at + 1000)).toBe(constants.captchaLockMs - 1000);
    expect(lockedFor(at + constants.captchaLockMs + 1)).toBe(0);
  });
});
