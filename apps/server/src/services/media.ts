import { randomBytes } from 'node:crypto';
import type { Database, Q } from '../db';
import { ApiError } from '../lib/errors';
import type { MediaStorePort } from '../providers/media/port';
import { mediaRepo } from '../repositories/media';

export type MediaKind = 'mms' | 'kyc' | 'voicemail';

export interface SavedMedia {
  id: string;
  url: string;
  mime: string;
  size: number;
}

export const mediaUrl = (id: string) => `/media/${id}`;
export const mediaIdFromUrl = (url: string): string | null =>
  url.match(/^\/media\/([A-Za-z0-9_-]{8,80})$/)?.[1] ?? null;

/**
 * Media files: the type is read from the bytes (never from the name), the size is capped, and a file
 * is readable only by the accounts granted access (its owner, and a message's recipient).
 */
export function createMediaService(db: Database, store: MediaStorePort) {
  return {
    store,

    /** Checks and keeps a file; `q` is the caller's transaction when the file belongs to one. */
    async save(p: {
      accountId: number;
      kind: MediaKind;
      bytes: Uint8Array;
      allowed: readonly string[];
      maxBytes: number;
      fileName?: string | undefined;
      q?: Q;
    }): Promise<SavedMedia> {
      if (p.bytes.byteLength === 0) throw new ApiError(300038, null, 'empty file');
      if (p.bytes.byteLength > p.maxBytes) throw new ApiError(100005, { maxBytes: p.maxBytes });
      const type = await (await import('file-type')).fileTypeFromBuffer(p.bytes);
      if (!type || !p.allowed.includes(type.mime))
        throw new ApiError(300038, { allowed: p.allowed }, type?.mime ?? 'unknown type');
      const id = randomBytes(18).toString('base64url');
      await store.put(id, p.bytes, type.mime);
      await mediaRepo.insert(p.q ?? db.q, {
        id,
        accountId: p.accountId,
        kind: p.kind,
        mime: type.mime,
        size: p.bytes.byteLength,
        fileName: p.fileName?.slice(0, 200) ?? null,
      });
      return { id, url: mediaUrl(id), mime: type.mime, size: p.bytes.byteLength };
    },

    /** Lets another account read a file (the recipient of an MMS). */
    async grant(q: Q, mediaId: string, accountId: number): Promise<void> {
      await mediaRepo.grant(q, mediaId, accountId);
    },

    /** The file, if this account may read it. */
    async read(mediaId: string, accountId: number): Promise<{ bytes: Buffer; mime: string } | null> {
      const mime = await mediaRepo.readableMime(db.q, mediaId, accountId);
      if (!mime) return null;
      const bytes = await store.get(mediaId);
      return bytes ? { bytes, mime } : null;
    },

    /** For operators: the file whatever its access list. */
    async readAny(mediaId: string): Promise<{ bytes: Buffer; mime: string; accountId: number } | null> {
      const row = await mediaRepo.byId(db.q, mediaId);
      if (!row) return null;
      const bytes = await store.get(mediaId);
      return bytes ? { bytes, mime: row.mime, accountId: row.accountId } : null;
    },

    /** Media types of stored files, by id (what the carrier needs to attach them). */
    types: (ids: readonly string[]) => mediaRepo.types(db.q, ids),

    /** Marks identity images no longer on file as deleted, in the caller's transaction. */
    retireKyc: (q: Q, accountId: number, ids: readonly string[]) => mediaRepo.retireKyc(q, accountId, ids),
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
