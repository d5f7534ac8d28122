/** Migration 100: speech-to-text results, one per recording and language (issue 25). */
export interface SttTables {
  stt_transcripts: {
    /** SHA-256 of the recording's bytes, hex */
    audio_sha256: string;
    /** `auto` or the BCP 47 tag asked for */
    language: string;
    /** pending | done | failed */
    status: string;
    /** the adapter that answered (or is asking) */
    provider: string;
    text: string | null;
    reason: string | null;
    claimed_at: Date;
    finished_at: Date | null;
  };
}
