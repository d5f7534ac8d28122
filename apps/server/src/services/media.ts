import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { Database, Queryable } from '../db';
import { ApiError } from '../lib/errors';
import type { MediaStorePort } from '../providers/media/port';

export type MediaKind = 'mms' | 'kyc' | 'voicemail';

export interface SavedMedia {
  id: string;
  url: string;
  mime: string;
  size: number;
}

export const mediaUrl = (id: string) => `/media/${id}`;
export const mediaIdFromUrl = (url: string): string | null => url.match(/^\/media\/([A-Za-z0-9_-]{8,80})$/)?.[1] ?? null;

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
      q?: Queryable;
    }): Promise<SavedMedia> {
      if (p.bytes.byteLength === 0) throw new ApiError(300038, null, 'empty file');
      if (p.bytes.byteLength > p.maxBytes) throw new ApiError(100005, { maxBytes: p.maxBytes });
      const type = await fileTypeFromBuffer(p.bytes);
      if (!type || !p.allowed.includes(type.mime)) throw new ApiError(300038, { allowed: p.allowed }, type?.mime ?? 'unknown type');
      const id = randomBytes(18).toString('base64url');
      await store.put(id, p.bytes, type.mime);
      const q = p.q ?? db;
      await q.query(`INSERT INTO media (id, account_id, kind, mime, size, file_name) VALUES ($1, $2, $3, $4, $5, $6)`, [
        id,
        p.accountId,
        p.kind,
        type.mime,
        p.bytes.byteLength,
        p.fileName?.slice(0, 200) ?? null,
      ]);
      await q.query(`INSERT INTO media_access (media_id, account_id) VALUES ($1, $2)`, [id, p.accountId]);
      return { id, url: mediaUrl(id), mime: type.mime, size: p.bytes.byteLength };
    },

    /** Lets another account read a file (the recipient of an MMS). */
    async grant(q: Queryable, mediaId: string, accountId: number): Promise<void> {
      await q.query(`INSERT INTO media_access (media_id, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [mediaId, accountId]);
    },

    /** The file, if this account may read it. */
    async read(mediaId: string, accountId: number): Promise<{ bytes: Buffer; mime: string } | null> {
      const [row] = await db.query<{ mime: string }>(
        `SELECT m.mime FROM media m JOIN media_access a ON a.media_id = m.id
          WHERE m.id = $1 AND a.account_id = $2 AND m.deleted_at IS NULL`,
        [mediaId, accountId],
      );
      if (!row) return null;
      const bytes = await store.get(mediaId);
      return bytes ? { bytes, mime: row.mime } : null;
    },

    /** For operators: the file whatever its access list. */
    async readAny(mediaId: string): Promise<{ bytes: Buffer; mime: string; accountId: number } | null> {
      const [row] = await db.query<{ mime: string; accountId: number }>(
        `SELECT mime, account_id AS "accountId" FROM media WHERE id = $1 AND deleted_at IS NULL`,
        [mediaId],
      );
      if (!row) return null;
      const bytes = await store.get(mediaId);
      return bytes ? { bytes, mime: row.mime, accountId: row.accountId } : null;
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
