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

export interface SessionWithAccount extends SessionRow {
  brand: BrandId;
  accountStatus: number;
}

/** The newest link of a session's refresh chain, with its account's status. */
export interface SessionTip {
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
      .where('revoked_at', 'is', null);
    if (keepId !== null) query = query.where('id', '<>', keepId);
    const rows = await query.returning('id').execute();
    return rows.map((r) => r.id);
  },

  async touch(q: Q, id: number): Promise<void> {
    await q
      .updateTable('sessions')
      .set({ last_seen_at: sql`now()` })
      .where('id', '=', id)
      .where('last_seen_at', '<', sql<Date>`now() - interval '5 minutes'`)
      .execute();
  },

  /**
   * The newest link of a session's chain: a session revoked as 'refreshed' continues in the session
   * created in the same transaction (same account, created at its revocation time). Null: no such session.
   */
  async chainTip(q: Q, sessionId: number): Promise<SessionTip | null> {
    const row = await q
      .withRecursive('chain(id, account_id, revoked_at, revoke_reason, expires_at, depth)', (qb) =>
        qb
          .selectFrom('sessions')
          .select([
            'id',
            'account_id',
            'revoked_at',
            'revoke_reason',
            'expires_at',
            sql<number>`0`.as('depth'),
          ])
          .where('id', '=', sessionId)
          .unionAll((u) =>
            u
              .selectFrom('chain as c')
              .innerJoin('sessions as s', (join) =>
                join
                  .onRef('s.account_id', '=', 'c.account_id')
                  .on('c.revoke_reason', '=', 'refreshed')
                  .onRef('s.created_at', '=', 'c.revoked_at')
                  .onRef('s.id', '>', 'c.id'),
              )
              .select([
                's.id',
                's.account_id',
                's.revoked_at',
                's.revoke_reason',
                's.expires_at',
                sql<number>`c.depth + 1`.as('depth'),
              ])
              .where('c.depth', '<', 1000),
          ),
      )
      .selectFrom('chain as c')
      .innerJoin('accounts as a', 'a.id', 'c.account_id')
      .select([
        'c.revoked_at as revokedAt',
        'c.revoke_reason as revokeReason',
        'c.expires_at as expiresAt',
        'a.status as accountStatus',
      ])
      .orderBy('c.depth', 'desc')
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
