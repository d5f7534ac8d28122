import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import { constants } from '@numa/contract';
import { Redis } from 'ioredis';
import { openDatabase, type Database } from './db';
import { isDev, type Env } from './env';
import { brandResolver } from './lib/brand';
import { ApiError } from './lib/errors';
import { defaultWebDist } from './lib/paths';
import type { CarrierPort } from './providers/carrier/port';
import { createCarrier } from './providers/carrier';
import type { MailPort } from './providers/mail/port';
import { SimulatedMail } from './providers/mail/simulator';
import { SmtpMail } from './providers/mail/smtp';
import contextPlugin from './plugins/context';
import errorsPlugin from './plugins/errors';
import webPlugin from './plugins/web';
import authRoutes from './routes/auth';
import contactRoutes from './routes/contacts';
import verifyRoutes from './routes/verify';
import profileRoutes from './routes/profile';
import inviteRoutes from './routes/invite';
import mediaRoutes from './routes/media';
import { LocalMediaStore } from './providers/media/local';
import type { MediaStorePort } from './providers/media/port';
import { createMediaService } from './services/media';
import path from 'node:path';
import catalogueRoutes from './routes/catalogue';
import devRoutes from './routes/dev';
import healthRoutes from './routes/health';
import { createCaptchaService } from './services/captcha';
import { createCodeService } from './services/codes';
import { createSessionService } from './services/sessions';
import type { Deps } from './types';
import chatRoutes from './routes/chats';
import carrierRoutes from './routes/carrier';
import realtimePlugin from './realtime';
import { RealtimeHub } from './realtime/hub';
import { createChatService, type ChatOptions } from './services/chats';
import { seedDemoIfNew } from './services/demo';
import { NoSpeechToText } from './providers/stt/none';
import type { SttPort } from './providers/stt/port';

export interface BuildOptions {
  env: Env;
  /** An open, migrated database (tests pass their own); otherwise opened from env and closed with the app. */
  db?: Database;
  mail?: MailPort;
  carrier?: CarrierPort;
  mediaStore?: MediaStorePort;
  stt?: SttPort;
  /** Chat tuning (tests: short leases, small abuse limits). */
  chats?: Partial<ChatOptions>;
  logger?: FastifyServerOptions['logger'];
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
  });

  const db = opts.db ?? (await openDatabase(env));
  const ownsDb = !opts.db;
  const dev = isDev(env);
  const mail: MailPort =
    opts.mail ?? (env.SMTP_URL ? new SmtpMail(env.SMTP_URL, env.MAIL_FROM) : new SimulatedMail(app.log));
  const carrier: CarrierPort = opts.carrier ?? createCarrier(env, app.log);
  if (!dev && mail.name === 'simulator') app.log.warn('SMTP_URL is not set: e-mailed codes go to the mail simulator');

  const media = createMediaService(db, opts.mediaStore ?? new LocalMediaStore(path.resolve(env.DATA_DIR, 'media')));
  const realtime = new RealtimeHub();
  const deps: Deps = {
    env,
    dev,
    db,
    mail,
    carrier,
    brandOf: brandResolver(env.BRAND_HOSTS, env.DEFAULT_BRAND),
    sessions: createSessionService(db),
    codes: createCodeService({ db, mail, carrier, dev, log: app.log, ipLimitFactor: env.IP_RATE_LIMIT_FACTOR }),
    captcha: createCaptchaService(db),
    captchaNext: new Map(),
    media,
    realtime,
    stt: opts.stt ?? new NoSpeechToText(),
    chats: createChatService({ db, carrier, media, realtime, log: app.log, ...(opts.chats ? { options: opts.chats } : {}) }),
  };
  app.decorate('deps', deps);
  // dev start on a new database: the demo accounts (npm run seed:demo does the same on demand)
  if (env.NODE_ENV === 'development') {
    const seeded = await seedDemoIfNew(db);
    if (seeded) app.log.info({ demo: seeded }, 'demo accounts created (sign in as demo1@numa.test / demo2@numa.test)');
  }

  await app.register(contextPlugin);
  await app.register(errorsPlugin);

  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 1 }) : null;
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'numa-rl:', skipOnError: true } : {}),
    errorResponseBuilder: () => new ApiError(100015),
  });

  // multipart bodies (identity images): routes read them with req.parts() and their own tighter limits
  await app.register(multipart, {
    limits: { fileSize: constants.identityImage.maxBytes, files: 4, fields: 10, fieldSize: 4096, parts: 14, headerPairs: 50 },
  });

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(catalogueRoutes);
  await app.register(mediaRoutes);
  await app.register(contactRoutes);
  await app.register(verifyRoutes);
  await app.register(profileRoutes);
  await app.register(inviteRoutes);
  await app.register(chatRoutes);
  await app.register(carrierRoutes);
  await app.register(realtimePlugin);
  if (dev) await app.register(devRoutes);
  await app.register(webPlugin, { dist: env.WEB_DIST ?? defaultWebDist });

  app.addHook('onClose', async () => {
    await mail.close?.();
    await carrier.close?.();
    redis?.disconnect();
    if (ownsDb) await db.close();
  });
  return app;
}
