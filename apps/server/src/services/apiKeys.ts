import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { BrandId } from '@numa/contract';
import { ApiScope, developerLimits, type ApiKeyInfo } from '@numa/contract/developer';
import type { Database } from '../db';
import { ApiError } from '../lib/errors';
import { sha256 } from '../lib/crypto';
import { AccountStatus } from '../repositories/accounts';
import { apiKeysRepo, type ApiKeyRow, type ApiKeyWithAccount } from '../repositories/apiKeys';

/** Who calls /api/v1 or handler_api: the key, its account and brand, and what it may do. */
export interface ApiPrincipal {
  keyId: number;
  accountId: number;
  brand: BrandId;
  scopes: ReadonlySet<ApiScope>;
}

/** Every key starts with this: secret scanners (and people) tell it apart. */
export const apiKeyPrefix = 'numa_sk_';
/** A key as it can be: the prefix and 43 characters of base64url (256 bits). */
export const apiKeyPattern = /^numa_sk_[A-Za-z0-9_-]{43}$/;

/** The Redis key a revocation leaves for `ttlMs` × 4, so every server stops honouring its cached copy at once. */
export const revokedMarker = (prefix: string, keyId: number) => `${prefix}:apikey-revoked:${keyId}`;

export interface ApiKeyOptions {
  /** How long a key read from the database answers from memory (revocations end it at once). */
  ttlMs: number;
  /** last_used_at is written at most this often per key. */
  touchEveryMs: number;
  /** Several servers: a revocation marks the key in Redis, and a cached key is checked against it. */
  redis?: { client: Redis; prefix: string } | null;
  log?: FastifyBaseLogger;
}

const toInfo = (k: ApiKeyRow): ApiKeyInfo => ({
  id: String(k.id),
  name: k.name,
  prefix: k.prefix,
  scopes: parseScopes(k.scopes),
  createdAt: k.createdAt.getTime(),
  lastUsedAt: k.lastUsedAt ? k.lastUsedAt.getTime() : null,
});

function parseScopes(s: string): ApiScope[] {
  return s
    .split(',')
    .map((x) => ApiScope.safeParse(x))
    .flatMap((r) => (r.success ? [r.data] : []));
}

/**
 * API keys (issue 21): made with a name and scopes, shown once, stored as SHA-256, bound to their
 * account and brand, revocable. They authenticate /api/v1 and handler_api only: the session check of
 * /web and the socket never looks at this table.
 *
 * The hot path reads no database: a key is kept in memory for `ttlMs`. A revocation clears this
 * server's copy at once and, with Redis, leaves a marker every server checks before it honours a
 * cached key (one GET per call), so a revoked key is refused at once everywhere; without Redis, other
 * processes (several servers on one PostgreSQL) refuse it within `ttlMs`.
 */
export function createApiKeyService(db: Database, options: Partial<ApiKeyOptions> = {}) {
  const opts: ApiKeyOptions = { ttlMs: 5_000, touchEveryMs: 60_000, ...options };
  const cache = new Map<string, { key: ApiKeyWithAccount | null; at: number }>();
  const touched = new Map<number, number>();
  const redis = opts.redis ?? null;

  function forgetKey(keyId: number) {
    for (const [hash, v] of cache) if (v.key?.id === keyId) cache.delete(hash);
  }

  async function revokedElsewhere(keyId: number): Promise<boolean> {
    if (!redis) return false;
    return (await redis.client.exists(revokedMarker(redis.prefix, keyId))) === 1;
  }

  async function read(hash: string): Promise<ApiKeyWithAccount | null> {
    const hit = cache.get(hash);
    const now = Date.now();
    if (hit && now - hit.at < opts.ttlMs) {
      if (!hit.key || hit.key.revokedAt) return hit.key;
      let revoked: boolean;
      try {
        revoked = await revokedElsewhere(hit.key.id);
      } catch (err) {
        // Redis cannot tell: the database can
        opts.log?.warn({ err }, 'redis (api keys) check failed; reading the key');
        revoked = true;
      }
      if (!revoked) return hit.key;
      cache.delete(hash);
    }
    const key = await apiKeysRepo.forHash(db.q, hash);
    if (cache.size > 50_000) cache.clear();
    cache.set(hash, { key, at: now });
    return key;
  }

  return {
    /** A new key: its facts, and the key itself (shown once; only its hash is kept). */
    async create(p: { accountId: number; brand: BrandId; name: string; scopes: readonly ApiScope[] }) {
      if ((await apiKeysRepo.countLive(db.q, p.accountId)) >= developerLimits.keys)
        throw new ApiError(400000, null, `at most ${developerLimits.keys} live keys`);
      const secret = apiKeyPrefix + randomBytes(32).toString('base64url');
      const row = await apiKeysRepo.insert(db.q, {
        accountId: p.accountId,
        brand: p.brand,
        name: p.name,
        prefix: secret.slice(0, 12),
        tokenHash: sha256(secret),
        scopes: [...new Set(p.scopes)].join(','),
      });
      return { key: toInfo(row), secret };
    },

    async list(accountId: number): Promise<ApiKeyInfo[]> {
      return (await apiKeysRepo.ofAccount(db.q, accountId)).map(toInfo);
    },

    /** The operator's list: every key of the account, revoked ones too. */
    async listAll(accountId: number) {
      return (await apiKeysRepo.ofAccount(db.q, accountId, true)).map((k) => ({
        ...toInfo(k),
        revokedAt: k.revokedAt ? k.revokedAt.getTime() : null,
      }));
    },

    /** Revokes a live key of the account (100002 when it has none of that id): refused at once on every server. */
    async revoke(accountId: number, id: number | string): Promise<void> {
      const n = typeof id === 'number' ? id : /^\d{1,15}$/.test(id) ? Number(id) : 0;
      const row = n > 0 ? await apiKeysRepo.revoke(db.q, accountId, n) : null;
      if (!row) throw new ApiError(100002, null, 'no such key');
      forgetKey(row.id);
      if (redis) {
        await redis.client
          .set(revokedMarker(redis.prefix, row.id), '1', 'PX', Math.max(60_000, opts.ttlMs * 4))
          .catch((err: unknown) => opts.log?.warn({ err }, 'redis (api keys) marker not written'));
      }
    },

    /**
     * The principal of a key presented on a brand's host. A missing, malformed, unknown or revoked key,
     * or one of another brand: 100012; a suspended or deleted account: 100008 / 200018.
     */
    async authenticate(token: string | undefined, brand: BrandId): Promise<ApiPrincipal> {
      if (!token || !apiKeyPattern.test(token)) throw new ApiError(100012, null, 'invalid API key');
      const key = await read(sha256(token));
      if (!key || key.revokedAt || key.brand !== brand) throw new ApiError(100012, null, 'invalid API key');
      if (key.accountStatus === AccountStatus.deleted) throw new ApiError(200018);
      if (key.accountStatus === AccountStatus.suspended) throw new ApiError(100008);
      const now = Date.now();
      if (now - (touched.get(key.id) ?? 0) >= opts.touchEveryMs) {
        if (touched.size > 50_000) touched.clear();
        touched.set(key.id, now);
        void apiKeysRepo.touch(db.q, key.id).catch(() => {});
      }
      return {
        keyId: key.id,
        accountId: key.accountId,
        brand: key.brand,
        scopes: new Set(parseScopes(key.scopes)),
      };
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
