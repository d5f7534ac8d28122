import type { Q } from '../db';

export interface TranscriptRow {
  status: 'pending' | 'done' | 'failed';
  provider: string;
  text: string | null;
  reason: string | null;
  claimedAt: Date;
}

const columns = ['status', 'provider', 'text', 'reason', 'claimed_at as claimedAt'] as const;

/** Speech-to-text results by recording and language (migration 100). */
export const sttRepo = {
  async get(q: Q, hash: string, language: string): Promise<TranscriptRow | undefined> {
    return (await q
      .selectFrom('stt_transcripts')
      .select(columns)
      .where('audio_sha256', '=', hash)
      .where('language', '=', language)
      .executeTakeFirst()) as TranscriptRow | undefined;
  },

  /**
   * Claims the work of asking the provider: a new row, or a pending one whose claim is older than
   * `staleBefore` (its server died or gave up). true: this caller asks the provider.
   */
  async claim(
    q: Q,
    p: { hash: string; language: string; provider: string; now: Date; staleBefore: Date },
  ): Promise<boolean> {
    const row = await q
      .insertInto('stt_transcripts')
      .values({
        audio_sha256: p.hash,
        language: p.language,
        status: 'pending',
        provider: p.provider,
        claimed_at: p.now,
      })
      .onConflict((oc) =>
        oc
          .columns(['audio_sha256', 'language'])
          .doUpdateSet({ provider: p.provider, claimed_at: p.now })
          .where('stt_transcripts.status', '=', 'pending')
          .where('stt_transcripts.claimed_at', '<', p.staleBefore),
      )
      .returning('claimed_at')
      .executeTakeFirst();
    return !!row;
  },

  /** The provider answered: the transcript, or that this recording cannot be transcribed. */
  async finish(
    q: Q,
    p: { hash: string; language: string; claimedAt: Date; now: Date } & (
      { status: 'done'; text: string } | { status: 'failed'; reason: string }
    ),
  ): Promise<void> {
    await q
      .updateTable('stt_transcripts')
      .set({
        status: p.status,
        text: p.status === 'done' ? p.text : null,
        reason: p.status === 'failed' ? p.reason.slice(0, 500) : null,
        finished_at: p.now,
      })
      .where('audio_sha256', '=', p.hash)
      .where('language', '=', p.language)
      .where('status', '=', 'pending')
      .execute();
  },

  /** The provider was not reached (or is down): the claim is given up, so the next request asks again. */
  async release(q: Q, p: { hash: string; language: string; claimedAt: Date }): Promise<void> {
    await q
      .deleteFrom('stt_transcripts')
      .where('audio_sha256', '=', p.hash)
      .where('language', '=', p.language)
      .where('status', '=', 'pending')
      .where('claimed_at', '=', p.claimedAt)
      .execute();
  },
};
