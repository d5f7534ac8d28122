import type { BrandId } from '@numa/contract';
import { sql } from 'kysely';
import type { Q } from '../db';

export type RevokeReason = 'logout' | 'refreshed' | 'elsewhere' | 'operator';

export interface SessionRow {
  id: number;
  accountId: number;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokeReason: RevokeReason | null;
}

/** A session's family key: the first session of its refresh chain. */
const familyOf = sql<number>`COALESCE(family_id, id)`;

export interface SessionWithAccount extends SessionRow {
  familyId: number;
  brand: BrandId;
  accountStatus: number;
}

/** The newest link of a session's family, with its account's status. */
export interface SessionTip {
  accountId: number;
  revokedAt: Date | null;
  revokeReason: string | null;
  expiresAt: Date;
  accountStatus: number;
}

export const sessionsRepo = {
  async create(
    q: Q,
    s: {
      accountId: number;
      tokenHash: string;
      expiresAt: Date;
      userAgent?: string | undefined;
      ip?: string | undefined;
      /** The family a refresh continues (null/absent: a sign-in starts a new one). */
      familyId?: number | null;
    },
  ): Promise<number> {
    const row = await q
      .insertInto('sessions')
      .values({
        account_id: s.accountId,
        token_hash: s.tokenHash,
        expires_at: s.expiresAt,
        user_agent: s.userAgent?.slice(0, 300) ?? null,
        ip: s.ip ?? null,
        family_id: s.familyId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  },

  /** One query per authenticated request: the session and the bits of its account auth needs. */
  async forToken(q: Q, tokenHash: string): Promise<SessionWithAccount | null> {
    const row = await q
      .selectFrom('sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select([
        's.id',
        's.account_id as accountId',
        's.created_at as createdAt',
        's.expires_at as expiresAt',
        's.revoked_at as revokedAt',
        sql<RevokeReason | null>`s.revoke_reason`.as('revokeReason'),
        sql<number>`COALESCE(s.family_id, s.id)`.as('familyId'),
        'a.brand',
        'a.status as accountStatus',
      ])
      .where('s.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ?? null;
  },

  async revoke(q: Q, id: number, reason: RevokeReason): Promise<void> {
    await q
      .updateTable('sessions')
      .set({ revoked_at: sql`now()`, revoke_reason: reason })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  },

  /** Revokes every live session of an account but one; returns the ids revoked. */
  async revokeOthers(
    q: Q,
    accountId: number,
    keepId: number | null,
    reason: RevokeReason,
  ): Promise<number[]> {
    let query = q
      .updateTable('sessions')
      .set({ revoked_at: sql`now()`, revoke_reason: reason })
      .where('account_id', '=', accountId)
      // a replaced token in its grace ends too
      .where((w) => w.or([w('revoked_at', 'is', null), w('revoke_reason', '=', 'refreshed')]));
    if (keepId !== null) query = query.where('id', '<>', keepId);
    const rows = await query.returning('id').execute();
    return rows.map((r) => r.id);
  },

  async touch(q: Q, id: number): Promise<void> {
    await q
      .updateTable('sessions')
      .set({ last_seen_at: sql`now()` })
      .where('id', '=', id)
      .where('last_seen_at', '<', sql<Date>`now() - interval '1 minute'`)
      .execute();
  },

  /**
   * Ends a live session because a refresh replaced it (a conditional update: of two refreshes of one
   * token, one wins), keeping the key its successor token is derived with. Its family, or null when it
   * was not live any more (the loser of such a race).
   */
  async replace(q: Q, id: number, successorKey: string): Promise<number | null> {
    const row = await q
      .updateTable('sessions')
      .set({ revoked_at: sql`now()`, revoke_reason: 'refreshed', successor_key: successorKey })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(familyOf.as('familyId'))
      .executeTakeFirst();
    return row?.familyId ?? null;
  },

  /**
   * A refresh of a token a refresh replaced within the last `withinMs` (another tab's refresh of the
   * same token, at the same time): counts one replay, at most `times`, and gives the key of its
   * successor with the family. null: replaced longer ago, replayed already, or not replaced by a
   * refresh (then the refresh is a reuse).
   */
  async takeReplay(
    q: Q,
    id: number,
    p: { withinMs: number; times: number },
  ): Promise<{ successorKey: string; familyId: number } | null> {
    const row = await q
      .updateTable('sessions')
      .set((eb) => ({ successor_replays: eb('successor_replays', '+', 1) }))
      .where('id', '=', id)
      .where('revoke_reason', '=', 'refreshed')
      .where('successor_key', 'is not', null)
      .where('successor_replays', '<', p.times)
      .where('revoked_at', '>', sql<Date>`now() - make_interval(secs => ${p.withinMs / 1000})`)
      .returning(['successor_key as successorKey', familyOf.as('familyId')])
      .executeTakeFirst();
    return row?.successorKey ? { successorKey: row.successorKey, familyId: row.familyId } : null;
  },

  /** Whether the token of this hash is its family's live token (not replaced, revoked or expired). */
  async isLiveInFamily(q: Q, tokenHash: string, familyId: number): Promise<boolean> {
    const row = await q
      .selectFrom('sessions')
      .select('id')
      .where('token_hash', '=', tokenHash)
      .where(familyOf, '=', familyId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return !!row;
  },

  /**
   * Ends every token of a family still usable (live, or replaced and in its grace); returns the ids
   * ended. Logout, and a replaced token presented to refreshToken again (reuse).
   */
  async revokeFamily(q: Q, familyId: number, reason: RevokeReason): Promise<number[]> {
    const rows = await q
      .updateTable('sessions')
      .set({ revoked_at: sql`now()`, revoke_reason: reason })
      .where(familyOf, '=', familyId)
      .where((w) => w.or([w('revoked_at', 'is', null), w('revoke_reason', '=', 'refreshed')]))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  },

  /** A session's family key (null: no such session). */
  async familyOf(q: Q, sessionId: number): Promise<number | null> {
    const row = await q
      .selectFrom('sessions')
      .select(familyOf.as('f'))
      .where('id', '=', sessionId)
      .executeTakeFirst();
    return row?.f ?? null;
  },

  /** The newest link of a session's family (the token a socket's session continues in), with its account's status. */
  async familyTip(q: Q, sessionId: number): Promise<SessionTip | null> {
    const row = await q
      .selectFrom('sessions as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .select([
        's.account_id as accountId',
        's.revoked_at as revokedAt',
        's.revoke_reason as revokeReason',
        's.expires_at as expiresAt',
        'a.status as accountStatus',
      ])
      .where(sql<number>`COALESCE(s.family_id, s.id)`, '=', (eb) =>
        eb.selectFrom('sessions').select(familyOf.as('f')).where('id', '=', sessionId),
      )
      .orderBy('s.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ?? null;
  },

  /** Purge: sessions that expired before `before` (every session expires; revoked ones too). */
  async deleteExpired(q: Q, before: Date, limit: number): Promise<number> {
    const res = await q
      .deleteFrom('sessions')
      .where('id', 'in', (eb) =>
        eb.selectFrom('sessions').select('id').where('expires_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
