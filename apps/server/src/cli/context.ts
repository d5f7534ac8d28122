import { createMail } from '../providers/mail';
import type { MailPort } from '../providers/mail/port';
import { createNumberSupply } from '../providers/numbers';
import { createPricing } from '../services/pricing';
import { createSubscriptionService } from '../services/subscriptions';
import { createCodesOperator } from '../services/codes/operator';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BrandId, fromMinor, type Brand } from '@numa/contract';
import { openDatabase, type Database } from '../db';
import { loadEnv, type Env } from '../env';
import { LocalMediaStore } from '../providers/media/local';
import type { Account } from '../services/accounts';
import { createDemoService } from '../services/demo';
import { createMediaService } from '../services/media';
import { createNumbersService } from '../services/rentals/numbers/assign';
import { createOperatorService } from '../services/operator';
import { createPaymentService } from '../services/payments';
import { createJobs } from '../jobs';
import { systemClock } from '../lib/clock';
import { paymentProviders } from '../providers/payments';
import { createCodeSuppliers } from '../providers/codes';
import type { FastifyBaseLogger } from 'fastify';
import { createReviewService } from '../services/review';
import { createApiKeyService } from '../services/apiKeys';
import { lazy } from '../lib/lazy';
import type { Deps } from '../types';

/** What a command gets: the services it works with, and the brand chosen with --brand. */
/** Where a command's output goes: the terminal, or the operator socket's connection. */
export interface AdminIo {
  out: (line?: string) => void;
  err: (line: string) => void;
}

export interface CliContext
  extends
    Pick<Deps, 'codesOperator' | 'demo' | 'media' | 'numbers' | 'operator' | 'payments' | 'review'>,
    Partial<Pick<Deps, 'subscriptions' | 'pricing' | 'apiKeys'>> {
  env: Env;
  brand: BrandId;
  out: (line?: string) => void;
}

/** Builds a command's context; `close` ends what it opened. */
export type OpenContext = (
  flags: Record<string, string | boolean>,
  out: (line?: string) => void,
) => Promise<CliContext & { close(): Promise<void> }>;

export function brandFlag(flags: Record<string, string | boolean>, env: Env): BrandId {
  const brand = BrandId.safeParse(flags.brand ?? env.DEFAULT_BRAND);
  if (!brand.success) throw new CliError(`--brand must be one of ${BrandId.options.join(', ')}`);
  return brand.data;
}

export interface Command {
  /** e.g. `account show` */
  name: string;
  usage: string;
  summary: string;
  /** Flags it takes besides --brand (values are strings unless said). */
  options?: Record<string, { type: 'string' | 'boolean' }>;
  /** Its arguments are file paths: made absolute before the command is handed to the server. */
  fileArgs?: boolean;
  run(ctx: CliContext, args: string[], flags: Record<string, string | boolean>): Promise<void>;
}

export class CliError extends Error {}

/** The embedded database takes one process at a time: refuse while the server holds it. */
export function assertDataDirFree(env: Env) {
  if (env.DATABASE_URL) return;
  const lock = path.resolve(env.DATA_DIR, 'server.pid');
  if (!existsSync(lock)) return;
  const pid = Number(readFileSync(lock, 'utf8'));
  try {
    if (pid && pid !== process.pid) {
      process.kill(pid, 0);
      throw new CliError(
        `The server (pid ${pid}) is using the embedded database in ${path.resolve(env.DATA_DIR)}. Stop it first, or run both on PostgreSQL (DATABASE_URL).`,
      );
    }
  } catch (err) {
    if (err instanceof CliError) throw err;
    // no such process: a stale lock from a crash
  }
}

/** Opens the database itself (PostgreSQL, or the embedded one while no server holds it). */
export const openLocal: OpenContext = async (flags, out) => {
  const env = loadEnv();
  assertDataDirFree(env);
  const brand = brandFlag(flags, env);
  return contextOn(env, await openDatabase(env), brand, out);
};

/**
 * A command's context on an open database, without the server (closing it closes the database). On
 * PostgreSQL, the balances it moves reach the servers' sockets through the database (db/notify.ts).
 */
export async function contextOn(
  env: Env,
  db: Database,
  brand: BrandId,
  out: (line?: string) => void,
): Promise<CliContext & { close(): Promise<void> }> {
  const media = createMediaService(db, new LocalMediaStore(path.resolve(env.DATA_DIR, 'media')));
  // a revocation here reaches every server's cached keys through Redis (issue 21)
  const redis = env.REDIS_URL
    ? new (lazy.ioredis().Redis)(env.REDIS_URL, {
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
        lazyConnect: true,
      })
    : null;
  redis?.on('error', () => {});
  return {
    env,
    apiKeys: createApiKeyService(db, {
      ...(redis ? { redis: { client: redis, prefix: env.REDIS_KEY_PREFIX } } : {}),
    }),
    brand,
    out,
    codesOperator: createCodesOperator(db, createCodeSuppliers(env), systemClock),
    demo: createDemoService(db),
    media,
    numbers: createNumbersService(db),
    operator: createOperatorService(db),
    payments: cliPayments(env, db),
    pricing: createPricing(db),
    review: createReviewService(db, media),
    subscriptions: localSubscriptions(db, env),
    close: async () => {
      redis?.disconnect();
      await db.close();
    },
  };
}

export function describeAccount(a: Account, brand: Brand): string[] {
  return [
    `account ${a.id} (${a.brand})`,
    `  e-mail   ${a.email ?? '-'}`,
    `  phone    ${a.phone ? `+${a.telCode} ${a.phone}` : '-'}`,
    `  status   ${['', 'active', 'suspended', 'deleted'][a.status] ?? a.status}`,
    `  balance  ${fromMinor(a.balance).toFixed(brand.currency.decimals)} ${brand.currency.label.en}`,
    `  created  ${a.createdAt.toISOString()}`,
  ];
}

/** A logger that drops everything (the command prints its own lines). */
const quiet: FastifyBaseLogger = {
  level: 'silent',
  child: () => quiet,
  fatal() {},
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  silent() {},
} as unknown as FastifyBaseLogger;

/** The payment service for the command (its jobs are the server's; nothing is started here). */
function cliPayments(env: Env, db: Awaited<ReturnType<typeof openDatabase>>) {
  const jobs = createJobs({ db, clock: systemClock, log: quiet });
  const providers = paymentProviders(env, db, systemClock, async () => {
    throw new Error('the sandbox posts notifications from the running server only');
  });
  return createPaymentService({
    db,
    jobs,
    clock: systemClock,
    log: quiet,
    ...providers,
    options: {
      dailyAttempts: env.PAYMENT_DAILY_ATTEMPTS,
      orderTtlMs: env.PAYMENT_ORDER_TTL_MINUTES * 60_000,
    },
  });
}

/** The numbers service for a command run without the server (its jobs run in this process, when asked). */
function localSubscriptions(db: Database, env: Env) {
  const jobs = createJobs({ db, clock: systemClock, log: quiet });
  const mail: MailPort = createMail(env);
  return createSubscriptionService({
    db,
    pricing: createPricing(db),
    supply: createNumberSupply(env),
    jobs,
    clock: systemClock,
    mail,
    log: quiet,
  });
}
