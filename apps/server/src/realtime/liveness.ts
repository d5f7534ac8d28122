import { constants } from '@numa/contract';
import type { Queryable } from '../db';
import { AccountStatus } from '../repositories/accounts';

export type KickCode = 100008 | 100012 | 100013 | 100014 | 200018;

interface Tip {
  revokedAt: Date | null;
  revokeReason: string | null;
  expiresAt: Date;
  accountStatus: number;
}

/**
 * Whether a socket's session still stands, or the session retcode that ended it. A socket outlives
 * token refreshes (the client keeps its connection when it swaps tokens): a session revoked as
 * 'refreshed' continues in the session created in the same transaction, so the chain is followed to
 * its newest link. Sign-in elsewhere, logout, operator revocation, expiry, suspension and deletion end it.
 */
export async function sessionKick(q: Queryable, sessionId: number): Promise<KickCode | null> {
  const [tip] = await q.query<Tip>(
    `WITH RECURSIVE chain AS (
       SELECT id, account_id, created_at, revoked_at, revoke_reason, expires_at, 0 AS depth FROM sessions WHERE id = $1
       UNION ALL
       SELECT s.id, s.account_id, s.created_at, s.revoked_at, s.revoke_reason, s.expires_at, c.depth + 1
         FROM chain c JOIN sessions s
           ON s.account_id = c.account_id AND c.revoke_reason = 'refreshed' AND s.created_at = c.revoked_at AND s.id > c.id
        WHERE c.depth < 1000
     )
     SELECT c.revoked_at AS "revokedAt", c.revoke_reason AS "revokeReason", c.expires_at AS "expiresAt", a.status AS "accountStatus"
       FROM chain c JOIN accounts a ON a.id = c.account_id
      ORDER BY c.depth DESC LIMIT 1`,
    [sessionId],
  );
  if (!tip) return 100012;
  if (tip.accountStatus === AccountStatus.deleted) return 200018;
  if (tip.accountStatus === AccountStatus.suspended) return 100008;
  if (tip.revokedAt) {
    if (tip.revokeReason === 'elsewhere') return 100014;
    const inGrace =
      tip.revokeReason === 'refreshed' &&
      Date.now() - tip.revokedAt.getTime() < constants.tokenRefreshGraceMs;
    if (!inGrace) return 100012;
  }
  if (tip.expiresAt.getTime() < Date.now()) return 100013;
  return null;
}
