import { createHmac, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { constants, type BrandId } from '@numa/contract';
import type { Database, Tx } from '../db';
import { ApiError } from '../lib/errors';
import { newToken, sha256 } from '../lib/crypto';
import { AccountStatus } from '../repositories/accounts';
import {
  sessionsRepo,
  type RevokeReason,
  type SessionTip,
  type SessionWithAccount,
} from '../repositories/sessions';

export type { RevokeReason } from '../repositories/sessions';

/** The session retcodes that end a socket. */
export type KickCode = 100008 | 100012 | 100013 | 100014 | 200018;

export interface Session {
  id: number;
  accountId: number;
  brand: BrandId;
  /** A token a refresh replaced, in its grace: it serves ordinary calls only (it may not refresh again). */
  replaced?: boolean;
}

/** Emitted when sessions end, so the real-time layer can close their sockets. */
export interface SessionEvents {
  revoked: [{ accountId: number; sessionIds: number[]; reason: RevokeReason }];
}

export interface SessionCacheOptions {
  /** How long a session read from the database answers from memory (revocations clear it at once). */
  ttlMs: number;
  /** A session's last_seen_at is written at most this often. */
  touchEveryMs: number;
  /** Another server's revocations reach this one through Redis (REDIS_URL), and this one's reach them. */
  redis?: { client: Redis; channel: string } | null;
  log?: FastifyBaseLogger;
}

export const defaultSessionCache: SessionCacheOptions = { ttlMs: 5_000, touchEveryMs: 60_000 };

/**
 * Two tabs refreshing one token at once (issue 18): a refresh of the token a refresh replaced less
 * than `withinMs` ago is answered with the same successor, `times` times at most per replaced token,
 * instead of ending the family as a reuse. Later, more often, or for an older token, it is a reuse.
 */
export const refreshReplay = { withinMs: 30_000, times: 1 };

/**
 * The token a refresh gives for `token`: HMAC-SHA256 under a random key kept on the replaced session,
 * so the successor itself is never stored, and only a holder of the replaced token can be given it
 * again (the same 256-bit base64url shape as newToken()).
 */
const successorOf = (token: string, key: string) =>
  createHmac('sha256', key).update(token).digest('base64url');

/** The Redis channel sessions' revocations travel on between servers: `<REDIS_KEY_PREFIX>:sessions`. */
export const sessionsChannel = (prefix: string) => `${prefix}:sessions`;

interface Cached<T> {
  value: T;
  at: number;
  accountId: number | null;
}

/**
 * Opaque random tokens, stored as SHA-256 hashes. One live web session per account: a new sign-in
 * ends the others (they get 100014). A refresh replaces the token within its family (migration
 * 030); the replaced one serves ordinary calls for a short grace so other tabs pick up the new one,
 * but may not refresh again: presented to refreshToken, it is a reuse (a forked or stolen copy) and
 * the whole family ends — unless it comes at once from another tab of the same browser (the same
 * successor is given, see refreshReplay). Logout ends the whole family.
 *
 * The hot path reads no database: sessions and sockets' verdicts are kept in memory for `ttlMs`;
 * every revocation (logout, refresh reuse, sign-in elsewhere, operator) clears the account's entries
 * here at once and, with Redis, on every other server. `last_seen_at` is written at most once a minute.
 */
export function createSessionService(db: Database, cacheOptions: Partial<SessionCacheOptions> = {}) {
  const events = new EventEmitter<SessionEvents>();
  const opts: SessionCacheOptions = { ...defaultSessionCache, ...cacheOptions };
  const byToken = new Map<string, Cached<SessionWithAccount | null>>();
  const tips = new Map<number, Cached<SessionTip | null>>();
  const touched = new Map<number, number>();
  /** Bumped by every clearing, so a read that started before it does not fill the cache with a stale answer. */
  let generation = 0;

  function forgetLocal(accountId: number | null) {
    generation += 1;
    for (const [k, v] of byToken)
      if (accountId === null || v.accountId === null || v.accountId === accountId) byToken.delete(k);
    for (const [k, v] of tips)
      if (accountId === null || v.accountId === null || v.accountId === accountId) tips.delete(k);
  }

  const redis = opts.redis ?? null;
  const instance = randomBytes(6).toString('hex');
  let sub: Redis | null = null;
  let subscribed: Promise<void> = Promise.resolve();
  if (redis) {
    sub = redis.client.duplicate();
    sub.on('error', (err) => opts.log?.warn({ err }, 'redis (sessions) error'));
    sub.on('message', (_channel: string, message: string) => {
      const [from, id] = message.split(':');
      if (from === instance) return; // this server's own, already applied
      const accountId = Number(id);
      forgetLocal(Number.isInteger(accountId) && accountId > 0 ? accountId : null);
    });
    subscribed = sub.subscribe(redis.channel).then(() => undefined);
    subscribed.catch((err: unknown) => opts.log?.warn({ err }, 'redis (sessions) subscribe failed'));
  }

  /** Forgets what this server (and, with Redis, every server) remembers of an account's sessions. */
  function forget(accountId: number) {
    forgetLocal(accountId);
    if (redis)
      void redis.client
        .publish(redis.channel, `${instance}:${accountId}`)
        .catch((err: unknown) => opts.log?.warn({ err }, 'redis (sessions) publish failed'));
  }

  function announce(accountId: number, sessionIds: number[], reason: RevokeReason) {
    forget(accountId);
    if (sessionIds.length) events.emit('revoked', { accountId, sessionIds, reason });
  }

  async function cached<K, T>(
    map: Map<K, Cached<T>>,
    key: K,
    read: () => Promise<T>,
    accountOf: (v: T) => number | null,
  ): Promise<T> {
    const hit = map.get(key);
    const now = Date.now();
    if (hit && now - hit.at < opts.ttlMs) return hit.value;
    const gen = generation;
    const value = await read();
    if (gen === generation) {
      if (map.size > 50_000) map.clear();
      map.set(key, { value, at: now, accountId: accountOf(value) });
    }
    return value;
  }

  async function endFamily(session: Session, familyId: number, reason: RevokeReason) {
    const ids = await sessionsRepo.revokeFamily(db.q, familyId, reason);
    announce(session.accountId, ids.length ? ids : [session.id], reason);
  }

  return {
    events,

    /** Starts a session (a new family) in the caller's transaction; other sessions of the account are ended. */
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

    /** After the transaction of `start` committed: the ended sessions' sockets and caches hear of it. */
    announceRevoked(accountId: number, sessionIds: number[], reason: RevokeReason) {
      announce(accountId, sessionIds, reason);
    },

    /** An account's status changed (operator): what this server and the others remember of it goes. */
    forget,
    /** The same on this server only (another server told it through its own channel). */
    forgetHere: (accountId: number) => forgetLocal(accountId),

    /** The session of a token on a brand's host, or the session retcode that applies. */
    async authenticate(token: string | undefined, brand: BrandId): Promise<Session> {
      if (!token || token.length > 200) throw new ApiError(100012);
      const hash = sha256(token);
      const s = await cached(
        byToken,
        hash,
        () => sessionsRepo.forToken(db.q, hash),
        (v) => v?.accountId ?? null,
      );
      if (!s || s.brand !== brand) throw new ApiError(100012);
      let replaced = false;
      if (s.revokedAt) {
        if (s.revokeReason === 'elsewhere') throw new ApiError(100014);
        const withinGrace =
          s.revokeReason === 'refreshed' &&
          Date.now() - s.revokedAt.getTime() < constants.tokenRefreshGraceMs;
        if (!withinGrace) throw new ApiError(100012);
        replaced = true;
      }
      if (s.expiresAt.getTime() < Date.now()) throw new ApiError(100013);
      if (s.accountStatus === AccountStatus.deleted) throw new ApiError(200018);
      if (s.accountStatus === AccountStatus.suspended) throw new ApiError(100008);
      const now = Date.now();
      if (now - (touched.get(s.id) ?? 0) >= opts.touchEveryMs) {
        if (touched.size > 50_000) touched.clear();
        touched.set(s.id, now);
        void sessionsRepo.touch(db.q, s.id).catch(() => {});
      }
      return {
        id: s.id,
        accountId: s.accountId,
        brand: s.brand as BrandId,
        ...(replaced ? { replaced } : {}),
      };
    },

    /**
     * A new token in the session's family for `token` (the session's own, as presented); the presented
     * one is replaced (ended as 'refreshed', usable for ordinary calls during its grace). Only the
     * family's live token may refresh, with one exception: another tab of the same browser refreshing
     * the same token at the same moment (within refreshReplay.withinMs of the replacement, once per
     * replaced token, while its successor is still the family's live token) is given the same
     * successor. Anything else presenting a replaced token is a reuse (a forked or stolen copy), and
     * the whole family ends (100012).
     */
    async refresh(
      session: Session,
      token: string,
      meta: { userAgent?: string | undefined; ip?: string | undefined },
    ): Promise<string> {
      const outcome = await db.tx(async (q) => {
        if (!session.replaced) {
          const key = randomBytes(32).toString('base64url');
          const familyId = await sessionsRepo.replace(q, session.id, key);
          if (familyId !== null) {
            const next = successorOf(token, key);
            await sessionsRepo.create(q, {
              accountId: session.accountId,
              tokenHash: sha256(next),
              expiresAt: new Date(Date.now() + constants.tokenTtlMs),
              familyId,
              ...meta,
            });
            return { token: next, replaced: true };
          }
        }
        // the token was replaced already: by another tab's refresh a moment ago, or it is a reuse
        const replay = await sessionsRepo.takeReplay(q, session.id, refreshReplay);
        if (!replay) return null;
        const next = successorOf(token, replay.successorKey);
        if (!(await sessionsRepo.isLiveInFamily(q, sha256(next), replay.familyId))) return null;
        return { token: next, replaced: false };
      });
      if (outcome === null) {
        const family = await sessionsRepo.familyOf(db.q, session.id);
        await endFamily(session, family ?? session.id, 'logout');
        throw new ApiError(100012);
      }
      // the replaced token's cached row says 'live': forget it (its grace starts now)
      if (outcome.replaced) forget(session.accountId);
      return outcome.token;
    },

    /** Ends the whole family of the session (every token its refreshes made, in grace or not). */
    async logout(session: Session): Promise<void> {
      const family = await sessionsRepo.familyOf(db.q, session.id);
      await endFamily(session, family ?? session.id, 'logout');
    },

    /** Operator action: end every session of an account. */
    async revokeAll(accountId: number, reason: RevokeReason = 'operator'): Promise<void> {
      const ids = await sessionsRepo.revokeOthers(db.q, accountId, null, reason);
      announce(accountId, ids, reason);
    },

    /**
     * Whether a socket's session still stands, or the session retcode that ended it. A socket outlives
     * token refreshes (the client keeps its connection when it swaps tokens): its session continues in
     * the newest token of its family. Sign-in elsewhere, logout, a refresh reuse, operator revocation,
     * expiry, suspension and deletion end it. Answered from memory within `ttlMs` (cleared by revocations).
     */
    async kickCode(sessionId: number): Promise<KickCode | null> {
      const tip = await cached(
        tips,
        sessionId,
        () => sessionsRepo.familyTip(db.q, sessionId),
        (v) => v?.accountId ?? null,
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
    },

    /** Resolves once other servers' revocations are heard (subscribed to the Redis channel). */
    ready: () => subscribed,

    close() {
      sub?.disconnect();
      sub = null;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
