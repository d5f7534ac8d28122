import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { lazy } from '../lib/lazy';
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterUnion,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Env } from '../env';

/**
 * Flood limits (issue 9, hole 1), checked before any database work, with rate-limiter-flexible.
 *
 * Each limit is a token bucket: a steady rate (points per second) plus a burst allowance refilled over
 * a longer window (BurstyRateLimiter: the steady limiter first, the burst one when it is empty). The
 * per-socket buckets live in this process (a socket lives on one server); the per-account buckets and
 * the flood holds are shared through Redis when REDIS_URL is set (a memory limiter insures them when
 * Redis is down), so an account flooding several servers meets one budget. Every number comes from
 * env.ts (the README lists them).
 */
export interface LimitSettings {
  socketEventsPerSecond: number;
  socketEventsBurst: number;
  accountEventsPerSecond: number;
  accountEventsBurst: number;
  /** Refused events in a row after which a socket is disconnected. */
  floodStrikes: number;
  /** How long the token of a disconnected flooder is refused at the handshake. */
  floodHoldSeconds: number;
  accountCallsPerSecond: number;
  accountCallsBurst: number;
  socketConnectsPerMinute: number;
  /** Verification-code locks one account may take a minute, and an hour (both budgets apply). */
  codeLocksPerMinute: number;
  codeLocksPerHour: number;
}

/** The window over which burst allowances refill. */
const eventBurstWindowS = 10;
const callBurstWindowS = 60;

export function limitSettings(env: Env): LimitSettings {
  return {
    socketEventsPerSecond: env.SOCKET_EVENTS_PER_SECOND,
    socketEventsBurst: env.SOCKET_EVENTS_BURST,
    accountEventsPerSecond: env.ACCOUNT_EVENTS_PER_SECOND,
    accountEventsBurst: env.ACCOUNT_EVENTS_BURST,
    floodStrikes: env.SOCKET_FLOOD_STRIKES,
    floodHoldSeconds: env.SOCKET_FLOOD_HOLD_SECONDS,
    accountCallsPerSecond: env.ACCOUNT_CALLS_PER_SECOND,
    accountCallsBurst: env.ACCOUNT_CALLS_BURST,
    socketConnectsPerMinute: Math.ceil(env.SOCKET_CONNECTS_PER_MINUTE * env.IP_RATE_LIMIT_FACTOR),
    codeLocksPerMinute: env.CODE_LOCKS_PER_MINUTE,
    codeLocksPerHour: env.CODE_LOCKS_PER_HOUR,
  };
}

export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

/** What a flood hold is filed under: a hash of the token, never the token itself. */
export const holdKey = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 32);

export function createLimits(opts: { env: Env; log: FastifyBaseLogger; settings?: Partial<LimitSettings> }) {
  const s: LimitSettings = { ...limitSettings(opts.env), ...opts.settings };
  const redis = opts.env.REDIS_URL
    ? new (lazy.ioredis().Redis)(opts.env.REDIS_URL, {
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
      })
    : null;
  redis?.on('error', (err) => opts.log.warn({ err }, 'redis (rate limits) error'));
  const prefix = `${opts.env.REDIS_KEY_PREFIX}:rl`;

  const memory = (name: string, points: number, duration: number): RateLimiterAbstract =>
    new RateLimiterMemory({ keyPrefix: name, points: Math.max(1, Math.round(points)), duration });
  /** Shared through Redis when configured; once a key is over its budget it is held in memory, so a flood costs no Redis calls. */
  const shared = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const p = Math.max(1, Math.round(points));
    if (!redis) return memory(name, p, duration);
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${prefix}:${name}`,
      points: p,
      duration,
      inMemoryBlockOnConsumed: p + 1,
      inMemoryBlockDuration: duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory(`${name}-insurance`, p, duration),
    });
  };
  const bucket = (make: typeof memory, name: string, perSecond: number, burst: number, window: number) =>
    new BurstyRateLimiter(make(name, perSecond, 1), make(`${name}-burst`, burst, window));

  const socketEvents = bucket(
    memory,
    'sock-ev',
    s.socketEventsPerSecond,
    s.socketEventsBurst,
    eventBurstWindowS,
  );
  const accountEvents = bucket(
    shared,
    'acct-ev',
    s.accountEventsPerSecond,
    s.accountEventsBurst,
    eventBurstWindowS,
  );
  const accountCalls = bucket(
    shared,
    'acct-call',
    s.accountCallsPerSecond,
    s.accountCallsBurst,
    callBurstWindowS,
  );
  const connects = shared('conn-ip', s.socketConnectsPerMinute, 60);
  /** N a minute and M an hour: a lock spends from both, and either refuses. */
  const codeLocks = new RateLimiterUnion(
    shared('code-lock-min', s.codeLocksPerMinute, 60),
    shared('code-lock-hour', s.codeLocksPerHour, 3600),
  );
  const holds = shared('flood-hold', 1, s.floodHoldSeconds);

  const verdict = async (
    limiter: { consume(key: string | number, points?: number): Promise<RateLimiterRes> },
    key: string | number,
    points = 1,
  ): Promise<Verdict> => {
    try {
      await limiter.consume(key, points);
      return { ok: true };
    } catch (err) {
      if (err instanceof RateLimiterRes) return { ok: false, retryAfterMs: err.msBeforeNext };
      // the store failed and had no insurance: let the request through rather than fail it
      opts.log.warn({ err }, 'rate limiter failed');
      return { ok: true };
    }
  };

  return {
    settings: s,

    /** One socket event: the socket's own bucket, then its account's (both before any database work). */
    async event(socketId: string, accountId: number): Promise<Verdict> {
      const mine = await verdict(socketEvents, socketId);
      if (!mine.ok) return mine;
      return verdict(accountEvents, accountId);
    },

    /** One authenticated HTTP call, weighted by what it costs the database (route options). */
    call(accountId: number, cost: number): Promise<Verdict> {
      return verdict(accountCalls, accountId, cost);
    },

    /** One verification-code lock of an account (before any database work): within its minute's and its hour's budget. */
    async codeLock(accountId: number): Promise<Verdict> {
      try {
        await codeLocks.consume(accountId);
        return { ok: true };
      } catch (refusals) {
        const waits = Object.values(refusals as Record<string, unknown>)
          .filter((r): r is RateLimiterRes => r instanceof RateLimiterRes)
          .map((r) => r.msBeforeNext);
        if (waits.length) return { ok: false, retryAfterMs: Math.max(...waits) };
        // the store failed and had no insurance: let the lock through rather than fail it
        opts.log.warn({ err: refusals }, 'rate limiter failed');
        return { ok: true };
      }
    },

    /** A socket handshake from an address (before the token is looked up). */
    connect(ip: string): Promise<Verdict> {
      return verdict(connects, ip);
    },

    /** Holds a flooder's token (by its `holdKey`) off the handshake for a while (every server, with Redis). */
    async hold(key: string): Promise<void> {
      await holds
        .block(key, s.floodHoldSeconds)
        .catch((err: unknown) => opts.log.warn({ err }, 'flood hold failed'));
    },

    async isHeld(token: string): Promise<boolean> {
      try {
        const res = await holds.get(holdKey(token));
        return !!res && res.consumedPoints > 1;
      } catch {
        return false;
      }
    },

    /** Resolves once the shared store is connected (at once without Redis; until then the insurance limiters count). */
    async ready(): Promise<void> {
      if (!redis || redis.status === 'ready') return;
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
    },

    close() {
      redis?.disconnect();
    },
  };
}

export type Limits = ReturnType<typeof createLimits>;
