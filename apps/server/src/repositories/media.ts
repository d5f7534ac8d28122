import type { Q } from '../db';

/** Facts of media files (their bytes are in the media store) and who may read them. */
export const mediaRepo = {
  /** Records a file and gives its owner access. */
  async insert(
    q: Q,
    m: { id: string; accountId: number; kind: string; mime: string; size: number; fileName: string | null },
  ): Promise<void> {
    await q
      .insertInto('media')
      .values({
        id: m.id,
        account_id: m.accountId,
        kind: m.kind,
        mime: m.mime,
        size: m.size,
        file_name: m.fileName,
      })
      .execute();
    await q.insertInto('media_access').values({ media_id: m.id, account_id: m.accountId }).execute();
  },

  async grant(q: Q, mediaId: string, accountId: number): Promise<void> {
    await q
      .insertInto('media_access')
      .values({ media_id: mediaId, account_id: accountId })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },

  /** The type of a file this account may read (null: no such file, deleted, or not theirs). */
  async readableMime(q: Q, mediaId: string, accountId: number): Promise<string | null> {
    const row = await q
      .selectFrom('media as m')
      .innerJoin('media_access as a', 'a.media_id', 'm.id')
      .select('m.mime')
      .where('m.id', '=', mediaId)
      .where('a.account_id', '=', accountId)
      .where('m.deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.mime ?? null;
  },

  /** A file's type and owner whatever its access list (operators, the carrier's media links). */
  async byId(q: Q, mediaId: string): Promise<{ mime: string; accountId: number } | null> {
    const row = await q
      .selectFrom('media')
      .select(['mime', 'account_id as accountId'])
      .where('id', '=', mediaId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ?? null;
  },

  /** Types of stored files, by id (what the carrier needs to attach them). */
  async types(q: Q, ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await q
      .selectFrom('media')
      .select(['id', 'mime'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.mime]));
  },

  /** Marks identity images no longer on file as deleted (their bytes go after the commit). */
  async retireKyc(q: Q, accountId: number, mediaIds: readonly string[]): Promise<void> {
    if (!mediaIds.length) return;
    await q
      .updateTable('media')
      .set({ deleted_at: new Date() })
      .where('account_id', '=', accountId)
      .where('kind', '=', 'kyc')
      .where('id', 'in', [...mediaIds])
      .execute();
  },
};
