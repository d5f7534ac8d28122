import type { Queryable } from '../db';

export type RevokeReason = 'logout' | 'refreshed' | 'elsewhere' | 'operator';

export interface SessionRow {
  id: number;
  accountId: number;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokeReason: RevokeReason | null;
}

export const sessionsRepo = {
  async create(
    q: Queryable,
    s: { accountId: number; tokenHash: string; expiresAt: Date; userAgent?: string | undefined; ip?: string | undefined },
  ): Promise<number> {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO sessions (account_id, token_hash, expires_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [s.accountId, s.tokenHash, s.expiresAt, s.userAgent?.slice(0, 300) ?? null, s.ip ?? null],
    );
    return row!.id;
  },

  async byTokenHash(q: Queryable, tokenHash: string): Promise<SessionRow | null> {
    const [row] = await q.query<SessionRow>(
      `SELECT id, account_id AS "accountId", created_at AS "createdAt", expires_at AS "expiresAt",
              revoked_at AS "revokedAt", revoke_reason AS "revokeReason"
         FROM sessions WHERE token_hash = $1`,
      [tokenHash],
    );
    return row ?? null;
  },

  async revoke(q: Queryable, id: number, reason: RevokeReason): Promise<void> {
    await q.query(`UPDATE sessions SET revoked_at = now(), revoke_reason = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, reason]);
  },

  /** Revokes every live session of an account but one; returns the ids revoked. */
  async revokeOthers(q: Queryable, accountId: number, keepId: number | null, reason: RevokeReason): Promise<number[]> {
    const rows = await q.query<{ id: number }>(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $3
        WHERE account_id = $1 AND revoked_at IS NULL AND ($2::bigint IS NULL OR id <> $2) RETURNING id`,
      [accountId, keepId, reason],
    );
    return rows.map((r) => r.id);
  },

  async touch(q: Queryable, id: number): Promise<void> {
    await q.query(`UPDATE sessions SET last_seen_at = now() WHERE id = $1 AND last_seen_at < now() - interval '5 minutes'`, [id]);
  },
};

export interface SessionWithAccount extends SessionRow {
  brand: string;
  accountStatus: number;
}

/** One query per authenticated request: the session and the bits of its account auth needs. */
export async function sessionForToken(q: Queryable, tokenHash: string): Promise<SessionWithAccount | null> {
  const [row] = await q.query<SessionWithAccount>(
    `SELECT s.id, s.account_id AS "accountId", s.created_at AS "createdAt", s.expires_at AS "expiresAt",
            s.revoked_at AS "revokedAt", s.revoke_reason AS "revokeReason", a.brand, a.status AS "accountStatus"
       FROM sessions s JOIN accounts a ON a.id = s.account_id
      WHERE s.token_hash = $1`,
    [tokenHash],
  );
  return row ?? null;
}
