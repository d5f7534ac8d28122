import { constants } from '@numa/contract';

/**
 * The captcha failure counter (spec 001 §8): a cookie holding 1 after the first failure and 2 after
 * the second; on the third it becomes the time of the lock. A success clears it. The server writes it
 * with each captcha answer (Set-Cookie, apps/server/src/lib/cookies.ts); the page only reads it. The
 * lock lasts `constants.captchaLockMs` (ours: the spec says only "try again later").
 */
const read = (): number => {
  const m = document.cookie.match(new RegExp(`(?:^|; )${constants.captchaFailuresCookie}=(\\d+)`));
  return m ? Number(m[1]) : 0;
};

/** Milliseconds the captcha stays locked, or 0. */
export function lockedFor(now = Date.now()): number {
  const v = read();
  if (v < 1_000_000_000) return 0; // a count, not a timestamp
  return Math.max(0, v + constants.captchaLockMs - now);
}
