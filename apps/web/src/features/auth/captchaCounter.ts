import { constants } from '@numa/contract';

/**
 * The captcha failure counter (spec 001 §8): a cookie holding 1 after the first failure and 2 after
 * the second; on the third it becomes the time of the lock. A success clears it. The lock lasts
 * LOCK_MS (ours: the spec says only "try again later").
 */
const COOKIE = 'numa_captcha_failures';
export const LOCK_MS = 10 * 60 * 1000;

const read = (): number => {
  const m = document.cookie.match(new RegExp(`(?:^|; )${COOKIE}=(\\d+)`));
  return m ? Number(m[1]) : 0;
};
const write = (v: number | null) => {
  document.cookie =
    v === null ? `${COOKIE}=; path=/; max-age=0; samesite=lax` : `${COOKIE}=${v}; path=/; max-age=${LOCK_MS / 1000}; samesite=lax`;
};

/** Milliseconds the captcha stays locked, or 0. */
export function lockedFor(now = Date.now()): number {
  const v = read();
  if (v < 1_000_000_000) return 0; // a count, not a timestamp
  const left = v + LOCK_MS - now;
  if (left <= 0) {
    write(null);
    return 0;
  }
  return left;
}

/** Records a wrong answer; true when this one locks the captcha. */
export function recordFailure(now = Date.now()): boolean {
  const v = read();
  const count = v >= 1_000_000_000 ? 0 : v;
  if (count + 1 >= constants.captchaFailuresBeforeLock) {
    write(now);
    return true;
  }
  write(count + 1);
  return false;
}

export const clearFailures = () => write(null);
