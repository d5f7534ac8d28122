import { negotiate } from '@fastify/accept-negotiator';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

/**
 * How dynamic answers are compressed (@fastify/compress in app.ts, and `encodedOnce` for answers kept
 * in memory): above 1 KiB of a compressible type, brotli or gzip as the client accepts, at a brotli
 * quality cheap enough for every request: quality 2 (issue 13 §2: a 5,001-chat list of 1.5 MB took
 * 33–48 ms at quality 4 and 12–20 ms at 2, for 29 KB instead of 28 KB; quality 1 is as fast but
 * twice the size).
 */
export const compression = {
  encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
  threshold: 1024,
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } },
};

/** Compressed forms of one answer's body, by encoding: kept with the answer (services/chats/reads.ts VersionedCache). */
export type Encoded = Map<string, Buffer>;

/**
 * The body compressed as @fastify/compress would for this Accept-Encoding, from `memo` when this
 * answer was compressed that way before (the answer is the same text: its validator did not move),
 * or null when it goes out as it is (small, or the client accepts neither encoding).
 */
export function encodedOnce(
  memo: Encoded,
  body: string,
  acceptEncoding: string | undefined,
): { encoding: string; bytes: Buffer } | null {
  if (!acceptEncoding || body.length < compression.threshold) return null;
  const encoding = negotiate(acceptEncoding.toLowerCase(), compression.encodings);
  if (encoding !== 'br' && encoding !== 'gzip') return null;
  let bytes = memo.get(encoding);
  if (!bytes) {
    bytes = encoding === 'br' ? brotliCompressSync(body, compression.brotliOptions) : gzipSync(body);
    memo.set(encoding, bytes);
  }
  return { encoding, bytes };
}
