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
