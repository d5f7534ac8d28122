import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
/** 32 random bytes, base64url: the session token handed to the client (only its hash is stored). */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const randomDigits = (n: number): string => Array.from({ length: n }, () => randomInt(10)).join('');
export const safeEqualHex = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
