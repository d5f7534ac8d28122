import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { constants, fromMinor, type Minor } from '@numa/contract';
import { Redis } from 'ioredis';
import { openDatabase, type BalanceSource, type Database } from './db';
import { isDev, type Env } from './env';
import { createJobs, type JobsOptions } from './jobs';
import { brandResolver } from './lib/brand';
import { systemClock, type Clock } from './lib/clock';
import { compression } from './lib/compression';
import { ApiError } from './lib/errors';
import { isLoopbackHost } from './lib/net';
import { defaultWebDist } from './lib/paths';
import contextPlugin from './plugins/context';
import errorsPlugin, { frameworkErrors } from './plugins/errors';
import headersPlugin from './plugins/headers';
import webPlugin from './plugins/web';
import { createCarrier } from './providers/carrier';
import type { PaymentProvider } from './providers/payments/port';
import { paymentProviders } from './providers/payments';
import type { CarrierPort } from './providers/carrier/port';
import type { MailPort } from './providers/mail/port';
import { SimulatedMail } from './providers/mail/simulator';
import { SmtpMail } from './providers/mail/smtp';
import { LocalMediaStore } from './providers/media/local';
import type { MediaStorePort } from './providers/media/port';
import { NoSpeechToText } from './providers/stt/none';
import { SimulatedSpeechToText } from './providers/stt/simulator';
import type { SttPort } from './providers/stt/port';
import realtimePlugin from './realtime';
import { RealtimeHub } from './realtime/hub';
import authRoutes from './routes/auth';
import carrierRoutes from './routes/carrier';
import catalogueRoutes from './routes/catalogue';
import chatRoutes from './routes/chats';
import codeRoutes from './routes/codes';
import cellPlanRoutes from './routes/cellPlans';
import contactRoutes from './routes/contacts';
import devRoutes from './routes/dev';
import healthRoutes from './routes/health';
import inviteRoutes from './routes/invite';
import mediaRoutes from './routes/media';
import paymentRoutes from './routes/payments';
import rateRoutes from './routes/rates';
import profileRoutes from './routes/profile';
import verifyRoutes from './routes/verify';
import { createAccountService } from './services/accounts';
import { createCaptchaService } from './services/captcha';
import { createCatalogueService } from './services/catalogue';
import { createCellPlanService } from './services/cellPlans';
import { createChatService, type ChatOptions } from './services/chats';
import { createCodesService } from './services/codes';
import { createCodesOperator } from './services/codes/operator';
import type { CodeSupplyPort } from './providers/codes/port';
import { createCodeSupply } from './providers/codes';
import { createContactService } from './services/contacts';
import { createDemoService } from './services/demo';
import { createDevService } from './services/dev';
import { createHealthService } from './services/health';
import { createInviteService } from './services/invite';
import { createLimits } from './services/limits';
import { createMediaService } from './services/media';
import { createNumbersService } from './services/numbers';
import { createSubscriptionService } from './services/subscriptions';
import { callSink, createCallService } from './services/calls';
import { createNumberSupply, type NumberSupplyPort } from './providers/numbers';
import numberRoutes from './routes/numbers';
import { createOperatorService } from './services/operator';
import { createPaymentService } from './services/payments';
import { createPowService } from './services/pow';
import { createPricing } from './services/pricing';
import { createProfileService } from './services/profile';
import { registerPurges } from './services/purges';
import { createReviewService } from './services/review';
import { createSessionService, sessionsChannel } from './services/sessions';
import { createSigninService } from './services/signin';
import { createVerifyService } from './services/verify';
import type { Deps } from './types';

export interface BuildOptions {
  env: Env;
  /** An open, migrated database (tests pass their own); otherwise opened from env and closed with the app. */
  db?: Database;
  mail?: MailPort;
  carrier?: CarrierPort;
  mediaStore?: MediaStorePort;
  stt?: SttPort;
  /** Where rentable numbers come from (default: the simulator). */
  numberSupply?: NumberSupplyPort;
  /** The code-number supplier (default: the simulator of CODE_SUPPLIER). */
  codeSupply?: CodeSupplyPort;
  /** Chat tuning (tests: short retry delays, small abuse limits). */
  chats?: Partial<ChatOptions>;
  /** Jobs tuning (tests: short leases and polls). */
  jobs?: Partial<JobsOptions>;
  /** The payment provider (tests: an adapter against a local fake); else PAYMENT_PROVIDER. */
  payments?: PaymentProvider;
  /** Where time comes from (tests move a ManualClock). */
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

/**
 * The `balance` socket event: after a commit that moved balances, each account's balance as it stands
 * is read and pushed to its sockets — or, when the committing statement returned it (the send path's
 * bill), pushed as returned, without a read. Events of one account go out one after another in the
 * order the commits were heard, so the last event an account's sockets get is never older than the
 * commit that caused it (a later change of the same balance waits for the earlier one's row lock,
 * so its commit is heard after it).
 */
function pushBalances(deps: Deps, log: FastifyInstance['log']) {
  const chains = new Map<number, Promise<void>>();
  return (accountIds: number[], from: BalanceSource, known?: ReadonlyMap<number, Minor>) => {
    for (const id of accountIds) {
      const committed = known?.get(id);
      const next = (chains.get(id) ?? Promise.resolve())
        .then(async () => {
          if (!deps.realtime.server) return;
          // a change made elsewhere (the operator's command on PostgreSQL) is heard by every
          // server, so each tells its own sockets
          deps.realtime.emitBalance(
            id,
            committed !== undefined ? fromMinor(committed) : await deps.accounts.balance(id),
            { localOnly: from === 'elsewhere' },
          );
        })
        .catch((err: unknown) => log.warn({ err, accountId: id }, 'balance event not sent'))
        .finally(() => {
          if (chains.get(id) === next) chains.delete(id);
        });
      chains.set(id, next);
    }
  };
}

/** Builds the whole server: plugins, then routes. It does not listen; server.ts does. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { env } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: env.LOG_LEVEL,
      redact: ['req.headers["auth-token"]', 'req.headers.cookie'],
    },
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    frameworkErrors,
  });

  const db = opts.db ?? (await openDatabase(env));
  const ownsDb = !opts.db;
  const dev = isDev(env);
  const mail: MailPort =
    opts.mail ?? (env.SMTP_URL ? new SmtpMail(env.SMTP_URL, env.MAIL_FROM) : new SimulatedMail(app.log));
  const carrier: CarrierPort = opts.carrier ?? createCarrier(env, app.log);
  if (!dev && mail.name === 'simulator')
    app.log.warn('SMTP_URL is not set: e-mailed codes go to the mail simulator');
  if (dev && !isLoopbackHost(env.HOST)) {
    app.log.warn(
      { host: env.HOST, nodeEnv: env.NODE_ENV },
      `DEVELOPMENT MODE ON A NETWORK ADDRESS (HOST=${env.HOST}): the simulators and demo accounts are reachable from other machines. ` +
        'The /dev routes (codes, captcha answers) still answer loopback requests only. Set NODE_ENV=production for a real deployment, or HOST=127.0.0.1.',
    );
  }

  const clock = opts.clock ?? systemClock;
  // an embedded database is this process's alone: any job lease in it at start is a dead process's
  const jobs = createJobs({
    db,
    clock,
    log: app.log,
    options: { releaseAllOnStart: ownsDb && db.kind === 'pglite', ...opts.jobs },
  });
  const media = createMediaService(
    db,
    opts.mediaStore ?? new LocalMediaStore(path.resolve(env.DATA_DIR, 'media')),
  );
  const pricing = createPricing(db);
  const realtime = new RealtimeHub();
  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 1 })
    : null;
  redis?.on('error', (err) => app.log.warn({ err }, 'redis error'));
  const sessions = createSessionService(db, {
    log: app.log,
    ttlMs: env.SESSION_CACHE_MS,
    ...(redis ? { redis: { client: redis, channel: sessionsChannel(env.REDIS_KEY_PREFIX) } } : {}),
  });
  const signin = createSigninService({
    db,
    mail,
    carrier,
    dev,
    log: app.log,
    ipLimitFactor: env.IP_RATE_LIMIT_FACTOR,
    sessions,
  });
  const stt = opts.stt ?? (env.STT === 'none' ? new NoSpeechToText() : new SimulatedSpeechToText());
  const numberSupply = opts.numberSupply ?? createNumberSupply(env, app.log);
  const pow = createPowService({ db, maxCounter: env.CAPTCHA_POW_MAX });
  const codeSupply: CodeSupplyPort = opts.codeSupply ?? createCodeSupply(env, app.log);
  const deps: Deps = {
    env,
    dev,
    clock,
    brandOf: brandResolver(env.BRAND_HOSTS, env.DEFAULT_BRAND),
    carrier,
    mail,
    stt,
    realtime,
    jobs,
    pricing,
    accounts: createAccountService(db),
    captcha: createCaptchaService(db, pow),
    captchaNext: new Map(),
    catalogue: createCatalogueService(db),
    cellPlans: createCellPlanService({ db, pricing, clock }),
    chats: createChatService({
      db,
      jobs,
      carrier,
      media,
      realtime,
      pricing,
      stt,
      log: app.log,
      ...(opts.chats ? { options: opts.chats } : {}),
      codeInbound: (m) => deps.codes.carrierInbound(m),
    }),
    codes: createCodesService({
      db,
      jobs,
      pricing,
      clock,
      realtime,
      supply: codeSupply,
      carrier,
      log: app.log,
    }),
    codesOperator: createCodesOperator(db, codeSupply),
    contacts: createContactService(db),
    demo: createDemoService(db),
    devTools: createDevService(db),
    health: createHealthService(db),
    invite: createInviteService(db),
    limits: createLimits({ env, log: app.log }),
    media,
    numbers: createNumbersService(db),
    operator: createOperatorService(db, sessions),
    payments: createPaymentService({
      db,
      jobs,
      clock,
      log: app.log,
      // the sandbox posts its notifications to this server as a provider would, over HTTP (in process)
      ...(opts.payments
        ? { provider: opts.payments }
        : paymentProviders(env, db, clock, async (url, body, headers) => {
            const u = new URL(url);
            const res = await app.inject({
              method: 'POST',
              url: u.pathname + u.search,
              headers: { ...headers, host: u.host },
              payload: body,
            });
            return { status: res.statusCode };
          })),
      options: {
        dailyAttempts: env.PAYMENT_DAILY_ATTEMPTS,
        orderTtlMs: env.PAYMENT_ORDER_TTL_MINUTES * 60_000,
      },
    }),
    numberSupply,
    calls: createCallService({ db, pricing, clock, stt, deliver: (m) => deps.chats.sink.inbound(m) }),
    subscriptions: createSubscriptionService({
      db,
      pricing,
      supply: numberSupply,
      jobs,
      clock,
      mail,
      log: app.log,
      notify: (accountId, e) =>
        realtime.emitRenewalFailed(accountId, { number: e.number, reclaimOn: e.reclaimOn }),
    }),
    pow,
    profile: createProfileService(db, media, app.log),
    review: createReviewService(db, media),
    sessions,
    signin,
    verify: createVerifyService(db, signin),
  };
  carrier.attachCalls?.(callSink(deps.calls));
  registerPurges(jobs, db, clock);
  app.decorate('deps', deps);
  // every committed balance change, whoever made it, reaches the account's sockets (issue 10)
  const stopBalanceEvents = db.onBalancesCommitted(pushBalances(deps, app.log));
  // dev start on a new database: the demo accounts (npm run seed:demo does the same on demand)
  if (env.NODE_ENV === 'development') {
    const seeded = await deps.demo.seedIfNew();
    if (seeded)
      app.log.info({ demo: seeded }, 'demo accounts created (sign in as demo1@numa.test / demo2@numa.test)');
  }

  // the jobs run with the server: from ready to close (before the sockets close, so results still reach them)
  // on PostgreSQL, balances the operator's command moves in its own process reach the sockets too
  let stopHearing: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopHearing = await db.hearOtherProcesses?.();
    await jobs.start();
  });
  app.addHook('preClose', async () => {
    await jobs.stop();
  });

  await app.register(contextPlugin);
  await app.register(errorsPlugin);
  await app.register(headersPlugin);
  // answers above 1 KiB of a compressible type (JSON, the page) go out brotli- or gzip-encoded as the
  // client accepts (lib/compression.ts); the built assets have their compressed files beside them
  // (plugins/web.ts), so only dynamic answers are compressed here
  await app.register(compress, {
    global: true,
    threshold: compression.threshold,
    encodings: compression.encodings,
    brotliOptions: compression.brotliOptions,
  });

  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'numa-rl:', skipOnError: true } : {}),
    errorResponseBuilder: () => new ApiError(100015),
  });

  // multipart bodies (identity images): routes read them with req.parts() and their own tighter limits
  await app.register(multipart, {
    limits: {
      fileSize: constants.identityImage.maxBytes,
      files: 4,
      fields: 10,
      fieldSize: 4096,
      parts: 14,
      headerPairs: 50,
    },
  });

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(catalogueRoutes);
  await app.register(mediaRoutes);
  await app.register(contactRoutes);
  await app.register(verifyRoutes);
  await app.register(profileRoutes);
  await app.register(inviteRoutes);
  await app.register(paymentRoutes);
  await app.register(rateRoutes);
  await app.register(chatRoutes);
  await app.register(numberRoutes);
  await app.register(codeRoutes);
  await app.register(cellPlanRoutes);
  await app.register(carrierRoutes);
  await app.register(realtimePlugin);
  if (dev) await app.register(devRoutes);
  await app.register(webPlugin, { dist: env.WEB_DIST ?? defaultWebDist });

  app.addHook('onClose', async () => {
    stopBalanceEvents();
    await stopHearing?.();
    await mail.close?.();
    await carrier.close?.();
    sessions.close();
    redis?.disconnect();
    deps.limits.close();
    if (ownsDb) await db.close();
  });
  return app;
}
