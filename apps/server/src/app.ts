import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { constants, fromMinor, type Minor } from '@numa/contract';
import { openDatabase, type BalanceSource, type Database } from './db';
import { isDev, type Env } from './env';
import { createJobs, type JobsOptions } from './jobs';
import { brandResolver } from './lib/brand';
import { systemClock, type Clock } from './lib/clock';
import { compression } from './lib/compression';
import { ApiError } from './lib/errors';
import { loggerOptions } from './lib/logging';
import { lazy, lazySchemaCompilers } from './lib/lazy';
import { startup } from './lib/startup';
import { isLoopbackHost } from './lib/net';
import { defaultWebDist } from './lib/paths';
import { createMetrics } from './metrics';
import metricsPlugin from './metrics/plugin';
import contextPlugin from './plugins/context';
import errorsPlugin, { frameworkErrors } from './plugins/errors';
import headersPlugin from './plugins/headers';
import webPlugin from './plugins/web';
import apiPlugin from './api';
import { createCarrier } from './providers/carrier';
import type { PaymentProvider } from './providers/payments/port';
import { paymentProviders } from './providers/payments';
import type { CarrierPort } from './providers/carrier/port';
import { createMail } from './providers/mail';
import type { MailPort } from './providers/mail/port';
import { LocalMediaStore } from './providers/media/local';
import type { MediaStorePort } from './providers/media/port';
import { createStt } from './providers/stt';
import type { SttPort } from './providers/stt/port';
import { providerSummary } from './providers/requirements';
import realtimePlugin from './realtime';
import { RealtimeHub } from './realtime/hub';
import authRoutes from './routes/auth';
import carrierRoutes from './routes/carrier';
import catalogueRoutes from './routes/catalogue';
import chatRoutes from './routes/chats';
import codeRoutes from './routes/codes';
import cellPlanRoutes from './routes/cellPlans';
import contactRoutes from './routes/contacts';
import templateRoutes from './routes/templates';
import scheduledRoutes from './routes/scheduled';
import developerRoutes from './routes/developer';
import pushRoutes from './routes/push';
import devRoutes from './routes/dev';
import healthRoutes from './routes/health';
import inviteRoutes from './routes/invite';
import mediaRoutes from './routes/media';
import paymentRoutes from './routes/payments';
import rateRoutes from './routes/rates';
import profileRoutes from './routes/profile';
import verifyRoutes from './routes/verify';
import { createAccountService } from './services/accounts';
import { createApiKeyService } from './services/apiKeys';
import { createApiLimits } from './services/apiLimits';
import { createCaptchaService } from './services/captcha';
import { createCatalogueService } from './services/catalogue';
import { createCellPlanService } from './services/cellPlans';
import { createChatService, type ChatOptions } from './services/chats';
import { createCodesService } from './services/codes';
import { createCodesOperator } from './services/codes/operator';
import type { CodeSupplyPort } from './providers/codes/port';
import { createCodeSuppliers } from './providers/codes';
import { createContactService } from './services/contacts';
import { createTemplateService } from './services/templates';
import { createScheduledService } from './services/scheduled';
import { createDemoService } from './services/demo';
import { createDevService } from './services/dev';
import { createHealthService } from './services/health';
import { createInviteService } from './services/invite';
import { createLimits } from './services/limits';
import { createMediaService } from './services/media';
import { createSubscriptionService } from './services/subscriptions';
import { createRentalsEngine } from './services/rentals/engine';
import { createNumbersService } from './services/rentals/numbers/assign';
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
import { createCachedStt } from './services/stt';
import { createSupplierSet } from './services/codes/suppliers';
import { createVerifyService } from './services/verify';
import { createSmsActivateService } from './services/smsActivate';
import { createWebhookService, type UrlPolicy } from './services/webhooks';
import { createPushService } from './services/push';
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
  /** The code-number supplier, or suppliers in their default order (default: CODE_SUPPLIER, CODE_SUPPLIER_FAILOVER). */
  codeSupply?: CodeSupplyPort | CodeSupplyPort[];
  /** Chat tuning (tests: short retry delays, small abuse limits). */
  chats?: Partial<ChatOptions>;
  /** Jobs tuning (tests: short leases and polls). */
  jobs?: Partial<JobsOptions>;
  /** The payment provider (tests: an adapter against a local fake); else PAYMENT_PROVIDER. */
  payments?: PaymentProvider;
  /** Where time comes from (tests move a ManualClock). */
  clock?: Clock;
  /**
   * Where webhooks may go (default: development allows http and private addresses; production only
   * https to public addresses). Tests give their own resolver or the production policy.
   */
  webhookPolicy?: Partial<UrlPolicy>;
  logger?: FastifyServerOptions['logger'];
  /**
   * The caller starts the jobs (app.deps.jobs.start()) once the server listens, instead of when the
   * app is ready: server.ts, so that a start answers sooner (issue 24 §5). Tests leave it off: their
   * jobs run from ready.
   */
  startJobsLater?: boolean;
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
    logger: opts.logger ?? loggerOptions(env),
    bodyLimit: env.BODY_LIMIT,
    trustProxy: env.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    frameworkErrors,
    schemaController: { compilersFactory: lazySchemaCompilers },
  });

  const db = opts.db ?? (await openDatabase(env));
  const ownsDb = !opts.db;
  const metrics = createMetrics({ db, log: app.log });
  const dev = isDev(env);
  // production is fail-closed (issue 18): server.ts refuses a start that would run a simulator, and
  // the factories never build one there unless DEMO_MODE=1 (a kind left unset is off)
  const mail: MailPort = opts.mail ?? createMail(env, app.log);
  const carrier: CarrierPort = metrics.observeCarrier(opts.carrier ?? createCarrier(env, db, app.log));
  if (!dev)
    app.log.info(
      { providers: providerSummary(env), demo: env.DEMO_MODE },
      env.DEMO_MODE
        ? 'DEMO MODE: simulated providers may run and every page says no real money moves'
        : 'providers',
    );
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
    metrics,
    options: { releaseAllOnStart: ownsDb && db.kind === 'pglite', ...opts.jobs },
  });
  const media = createMediaService(
    db,
    opts.mediaStore ?? new LocalMediaStore(path.resolve(env.DATA_DIR, 'media')),
  );
  const pricing = createPricing(db);
  const realtime = new RealtimeHub();
  const redis = env.REDIS_URL
    ? new (lazy.ioredis().Redis)(env.REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 1 })
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
  const sttPort = opts.stt ?? createStt(env, app.log);
  // every transcript is kept per recording and language: one provider call each, on any server
  const stt: SttPort =
    sttPort.name === 'none' ? sttPort : createCachedStt({ db, port: sttPort, clock, log: app.log });
  const numberSupply = opts.numberSupply ?? createNumberSupply(env, app.log);
  const pow = createPowService({ db, maxCounter: env.CAPTCHA_POW_MAX });
  const codeSuppliers = opts.codeSupply ? [opts.codeSupply].flat() : createCodeSuppliers(env, app.log);
  // real suppliers (they hand out numbers) are asked as a set: order per app and country, failover,
  // the price checked against the user's quote, every refusal recorded for the operator
  const codeSupply: CodeSupplyPort = codeSuppliers.every((s) => s.handsOutNumbers)
    ? createSupplierSet({ db, jobs, clock, log: app.log, suppliers: codeSuppliers })
    : codeSuppliers[0]!;
  const limits = createLimits({ env, log: app.log });
  const accounts = createAccountService(db);
  // everything paid by the period (rented numbers, kept verification numbers) renews through one engine
  const rentals = createRentalsEngine({ db, jobs, clock, metrics });

  // where webhooks and push services may be reached (development: http and private addresses too)
  const urlPolicy: UrlPolicy = { requireHttps: !dev, allowPrivate: dev, ...opts.webhookPolicy };
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
    metrics,
    accounts,
    apiKeys: createApiKeyService(db, {
      log: app.log,
      ttlMs: env.SESSION_CACHE_MS,
      ...(redis ? { redis: { client: redis, prefix: env.REDIS_KEY_PREFIX } } : {}),
    }),
    apiLimits: createApiLimits({
      perMinute: env.API_KEY_REQUESTS_PER_MINUTE,
      redis,
      prefix: env.REDIS_KEY_PREFIX,
      log: app.log,
    }),
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
      limits,
      log: app.log,
      metrics,
      rentals,
    }),
    codesOperator: createCodesOperator(db, codeSuppliers, clock),
    contacts: createContactService(db),
    templates: createTemplateService(db),
    scheduled: createScheduledService({
      db,
      jobs,
      clock,
      realtime,
      log: app.log,
      send: (sender, p) => deps.chats.send(sender, p),
    }),
    demo: createDemoService(db),
    devTools: createDevService(db),
    health: createHealthService(db),
    invite: createInviteService(db),
    limits,
    media,
    numbers: createNumbersService(db),
    operator: createOperatorService(db, sessions),
    payments: createPaymentService({
      db,
      jobs,
      clock,
      log: app.log,
      metrics,
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
      metrics,
      rentals,
      notify: (accountId, e) =>
        realtime.emitRenewalFailed(accountId, { number: e.number, reclaimOn: e.reclaimOn }),
    }),
    pow,
    profile: createProfileService(db, media, app.log),
    review: createReviewService(db, media),
    sessions,
    signin,
    verify: createVerifyService(db, signin),
    webhooks: createWebhookService({
      db,
      jobs,
      clock,
      mail,
      realtime,
      log: app.log,
      cacheMs: env.SESSION_CACHE_MS,
      policy: urlPolicy,
    }),
    push: createPushService({
      db,
      jobs,
      clock,
      realtime,
      log: app.log,
      vapid: {
        publicKey: env.VAPID_PUBLIC_KEY,
        privateKey: env.VAPID_PRIVATE_KEY,
        subject: env.VAPID_SUBJECT,
      },
      policy: urlPolicy,
    }),
    smsActivate: null as unknown as Deps['smsActivate'],
  };
  deps.smsActivate = createSmsActivateService({ db, env, clock, codes: deps.codes, accounts });
  carrier.attachCalls?.(callSink(deps.calls));
  metrics.observePayments(deps.payments);
  metrics.watch({ clock, jobs, realtime });
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
  startup.mark('services');

  // the jobs run with the server: from ready to close (before the sockets close, so results still reach them)
  // on PostgreSQL, balances the operator's command moves in its own process reach the sockets too
  let stopHearing: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopHearing = await db.hearOtherProcesses?.();
    if (!opts.startJobsLater) await jobs.start();
  });
  app.addHook('preClose', async () => {
    await jobs.stop();
  });

  await app.register(contextPlugin);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin);
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
  await app.register(templateRoutes);
  await app.register(scheduledRoutes);
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
  await app.register(developerRoutes);
  await app.register(pushRoutes);
  await app.register(apiPlugin);
  await app.register(realtimePlugin);
  if (dev) await app.register(devRoutes);
  await app.register(webPlugin, { dist: env.WEB_DIST ?? defaultWebDist });
  startup.mark('routes');

  app.addHook('onClose', async () => {
    stopBalanceEvents();
    await stopHearing?.();
    await mail.close?.();
    await carrier.close?.();
    sessions.close();
    deps.webhooks.close();
    deps.push.close();
    redis?.disconnect();
    deps.limits.close();
    if (ownsDb) await db.close();
  });
  return app;
}
