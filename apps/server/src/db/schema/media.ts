import type { Generated } from 'kysely';

/** Migration 003: media files (bytes in the media store) and who may read them. */
export interface MediaTables {
  media: {
    id: string;
    account_id: number;
    /** mms | kyc | voicemail */
    kind: string;
    mime: string;
    size: number;
    file_name: string | null;
    created_at: Generated<Date>;
    deleted_at: Date | null;
  };
  media_access: {
    media_id: string;
    account_id: number;
  };
}
