import { EventEmitter } from 'node:events';
import { constants, type BrandId } from '@numa/contract';
import type { Database, Tx } from '../db';
import { ApiError } from '../lib/errors';
import { newToken, sha256 } from '../lib/crypto';
import { AccountStatus } from '../repositories/accounts';
import { sessionsRepo, type RevokeReason } from '../repositories/sessions';

export type { RevokeReason } from '../repositories/sessions';

/** The session retcodes that end a socket. */
export type KickCode = 100008 | 100012 | 100013 | 100014 | 200018;

export interface Session {
  id: number;
  accountId: number;
  brand: BrandId;
}

/** Emitted when sessions end, so the real-time layer can close their sockets. */
export interface SessionEvents {
  revoked: [{ accountId: number; sessionIds: number[]; reason: RevokeReason }];
}

/**
 * Opaque random tokens, stored as SHA-256 hashes. One live web session per account: a new sign-in
 * ends the others (they get 100014). A refresh replaces the token; the old one works for a short grace
 * so other tabs pick up the new one.
 */
export function createSessionService(db: Database) {
  const events = new EventEmitter<SessionEvents>();

  return {
    events,

    /** Starts a session in the caller's transaction; other sessions of the account are ended. */
    async start(q: Tx, accountId: number, meta: { userAgent?: string | undefined; ip?: string | undefined }) {
      const token = newToken();
      const id = await sessionsRepo.create(q, {
        accountId,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + constants.tokenTtlMs),
        ...meta,
      });
      const revoked = await sessionsRepo.revokeOthers(q, accountId, id, 'elsewhere');
      return { token, id, revoked };
    },

    announceRevoked(accountId: number, sessionIds: number[], reason: RevokeReason) {
      if (sessionIds.length) events.emit('revoked', { accountId, sessionIds, reason });
    },

    /** The session of a token on a brand's host, or the session retcode that applies. */
    async authenticate(token: string | undefined, brand: BrandId): Promise<Session> {
      if (!token || token.length > 200) throw new ApiError(100012);
      const s = await sessionsRepo.forToken(db.q, sha256(token));
      if (!s || s.brand !== brand) throw new ApiError(100012);
      if (s.revokedAt) {
        if (s.revokeReason === 'elsewhere') throw new ApiError(100014);
        const withinGrace = s.revokeReason === 'refreshed' && Date.now() - s.revokedAt.getTime() < constants.tokenRefreshGraceMs;
        if (!withinGrace) throw new ApiError(100012);
      }
      if (s.expiresAt.getTime() < Date.now()) throw new ApiError(100013);
      if (s.accountStatus === AccountStatus.deleted) throw new ApiError(200018);
      if (s.accountStatus === AccountStatus.suspended) throw new ApiError(100008);
      void sessionsRepo.touch(db.q, s.id).catch(() => {});
      return { id: s.id, accountId: s.accountId, brand: s.brand as BrandId };
    },

    /** A new token for the session's account; the old session is ended as 'refreshed'. */
    async refresh(session: Session, meta: { userAgent?: string | undefined; ip?: string | undefined }): Promise<string> {
      return db.tx(async (q) => {
        const token = newToken();
        await sessionsRepo.revoke(q, session.id, 'refreshed');
        await sessionsRepo.create(q, {
          accountId: session.accountId,
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + constants.tokenTtlMs),
          ...meta,
        });
        return token;
      });
    },

    async logout(session: Session): Promise<void> {
      await sessionsRepo.revoke(db.q, session.id, 'logout');
      events.emit('revoked', { accountId: session.accountId, sessionIds: [session.id], reason: 'logout' });
    },

    /** Operator action: end every session of an account. */
    async revokeAll(accountId: number, reason: RevokeReason = 'operator'): Promise<void> {
      const ids = await sessionsRepo.revokeOthers(db.q, accountId, null, reason);
      events.emit('revoked', { accountId, sessionIds: ids, reason });
    },

    /**
     * Whether a socket's session still stands, or the session retcode that ended it. A socket outlives
     * token refreshes (the client keeps its connection when it swaps tokens): a session revoked as
     * 'refreshed' continues in the session created in the same transaction, so the chain is followed
     * to its newest link. Sign-in elsewhere, logout, operator revocation, expiry, suspension and
     * deletion end it.
     */
    async kickCode(sessionId: number): Promise<KickCode | null> {
      const tip = await sessionsRepo.chainTip(db.q, sessionId);
      if (!tip) return 100012;
      if (tip.accountStatus === AccountStatus.deleted) return 200018;
      if (tip.accountStatus === AccountStatus.suspended) return 100008;
      if (tip.revokedAt) {
        if (tip.revokeReason === 'elsewhere') return 100014;
        const inGrace = tip.revokeReason === 'refreshed' && Date.now() - tip.revokedAt.getTime() < constants.tokenRefreshGraceMs;
        if (!inGrace) return 100012;
      }
      if (tip.expiresAt.getTime() < Date.now()) return 100013;
      return null;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
