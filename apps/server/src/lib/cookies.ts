import { constants } from '@numa/contract';

/**
 * The session token also rides in an HttpOnly cookie scoped to /media, so that <img src="/media/…">
 * works for the owner without putting the token in URLs. API calls never read it (no CSRF surface).
 */
export const MEDIA_COOKIE = 'numa_media';

export const mediaCookie = (token: string, secure: boolean) =>
  `${MEDIA_COOKIE}=${token}; Path=/media; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(constants.tokenTtlMs / 1000)}${secure ? '; Secure' : ''}`;
export const clearMediaCookie = () => `${MEDIA_COOKIE}=; Path=/media; HttpOnly; SameSite=Lax; Max-Age=0`;

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return undefined; // a malformed escape is no token at all (the call then asks for a session)
    }
  }
  return undefined;
}

/**
 * The captcha failure counter (spec 001 §8: "kept in a cookie"), written by the server with each
 * captcha answer so the page never writes a cookie itself: 1 after the first wrong answer, 2 after the
 * second; the third turns it into the time of the lock (ms), which the page shows for
 * `captchaLockMs`. `now === null` (a right answer) clears it. Not HttpOnly: the page reads it to show
 * the lock before drawing a captcha.
 */
export function captchaFailureCookie(header: string | undefined, now: number | null): string {
  const name = constants.captchaFailuresCookie;
  if (now === null) return `${name}=; Path=/; SameSite=Lax; Max-Age=0`;
  const held = Number(readCookie(header, name) ?? 0);
  // a lock that has run out counts from zero again
  const count = Number.isFinite(held) && held > 0 && held < 1_000_000_000 ? held : 0;
  const value = count + 1 >= constants.captchaFailuresBeforeLock ? now : count + 1;
  return `${name}=${value}; Path=/; SameSite=Lax; Max-Age=${Math.floor(constants.captchaLockMs / 1000)}`;
}
