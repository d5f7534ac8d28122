import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** One call's spend from its key's budget: allowed or not, and what the RateLimit fields say. */
export interface KeyVerdict {
  ok: boolean;
  /** The policy's quota and window (RateLimit-Policy: q, w). */
  quota: number;
  windowS: number;
  /** Points left in this window (RateLimit: r) and seconds until it resets (t). */
  remaining: number;
  resetS: number;
}

/** The name of the policy in the RateLimit fields. */
export const keyPolicyName = 'key';

/**
 * Per-key rate limits of /api/v1 and handler_api (issue 21), with rate-limiter-flexible: `perMinute`
 * points a minute per key, in one fixed window, shared by every server through Redis when it is
 * configured (a memory limiter insures it when Redis is down). Checked before any database work but
 * the key's own (cached) lookup. The answer carries what the IETF draft's `RateLimit-Policy` and
 * `RateLimit` header fields say (draft-ietf-httpapi-ratelimit-headers).
 */
export function createApiLimits(opts: {
  perMinute: number;
  redis: Redis | null;
  prefix: string;
  log: FastifyBaseLogger;
}) {
  const windowS = 60;
  const memory = new RateLimiterMemory({ keyPrefix: 'api-key', points: opts.perMinute, duration: windowS });
  const limiter: RateLimiterAbstract = opts.redis
    ? new RateLimiterRedis({
        storeClient: opts.redis,
        keyPrefix: `${opts.prefix}:rl:api-key`,
        points: opts.perMinute,
        duration: windowS,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;

  const verdict = (ok: boolean, r: RateLimiterRes): KeyVerdict => ({
    ok,
    quota: opts.perMinute,
    windowS,
    remaining: Math.max(0, r.remainingPoints),
    resetS: Math.max(0, Math.ceil(r.msBeforeNext / 1000)),
  });

  return {
    perMinute: opts.perMinute,
    async spend(keyId: number, points = 1): Promise<KeyVerdict> {
      try {
        return verdict(true, await limiter.consume(String(keyId), points));
      } catch (err) {
        if (err instanceof RateLimiterRes) return verdict(false, err);
        opts.log.warn({ err }, 'api key rate limiter failed');
        return { ok: true, quota: opts.perMinute, windowS, remaining: opts.perMinute, resetS: windowS };
      }
    },
  };
}

export type ApiLimits = ReturnType<typeof createApiLimits>;
