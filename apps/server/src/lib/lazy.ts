import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import type { FastifyServerOptions } from 'fastify';
import type * as IoRedis from 'ioredis';
import type Stripe from 'stripe';
import type * as RedisAdapter from '@socket.io/redis-adapter';
import type * as CsvParse from 'csv-parse/sync';
import type * as DetectBrowser from 'detect-browser';
import type Nodemailer from 'nodemailer';
import type * as OpenAiSdk from 'openai';
import type * as PaypalSdk from '@paypal/paypal-server-sdk';
import type Pg from 'pg';
import type * as StandardWebhooks from 'standardwebhooks';
import type Wavefile from 'wavefile';
import type WebPush from 'web-push';

/**
 * Packages that only some starts or some requests use are loaded when first used, not when the
 * server starts (issue 24 §5: every package loaded before listening is start-up time): the Redis
 * client and the socket.io Redis adapter (REDIS_URL only), PostgreSQL's client (DATABASE_URL only),
 * the canvas (captcha pictures and the app icons), Stripe's and PayPal's SDKs (their provider only), the
 * SMTP client (MAIL=smtp), the speech-to-text SDK and the WAV reader (STT=openai), Web Push and the
 * user-agent parser (a device subscribing, a push going out), the webhook signer (a delivery), the
 * CSV parser (seeds, rate imports). Their CommonJS builds, loaded synchronously (a module is loaded
 * once; later calls return it); their types are `import type`, erased from the build. Measured on
 * a warm start (npm run bench:warm-start, idle 2-core machine): the phase before the modules went
 * from 1,185 ms to 598 ms when these were taken out of it (PayPal's SDK, with axios and its
 * dependencies, was the largest; then openai 90 ms, pg 78, the Redis adapter 58, nodemailer 48).
 */
const load = createRequire(import.meta.url);

export const lazy = {
  ioredis: () => load('ioredis') as typeof IoRedis,
  canvas: () => load('@napi-rs/canvas') as typeof Canvas,
  redisAdapter: () => load('@socket.io/redis-adapter') as typeof RedisAdapter,
  pg: () => load('pg') as typeof Pg,
  paypal: () => load('@paypal/paypal-server-sdk') as typeof PaypalSdk,
  nodemailer: () => load('nodemailer') as typeof Nodemailer,
  openai: () => load('openai') as typeof OpenAiSdk,
  wavefile: () => load('wavefile') as typeof Wavefile,
  webPush: () => load('web-push') as typeof WebPush,
  detectBrowser: () => load('detect-browser') as typeof DetectBrowser,
  standardWebhooks: () => load('standardwebhooks') as typeof StandardWebhooks,
  csvParse: () => load('csv-parse/sync') as typeof CsvParse,
  /** The SDK's constructor (its CommonJS build exports it as the module itself). */
  stripe: () => {
    const m = load('stripe') as { default?: unknown };
    return (m.default ?? m) as typeof Stripe;
  },
};

/** Fastify's own dependencies, resolved from where Fastify is installed (whatever npm hoisted). */
const fromFastify = createRequire(load.resolve('fastify'));
type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** What both packages export: a function making the builder Fastify calls with the shared schemas. */
type Builder = (schemas: unknown, options: unknown) => unknown;
/** Fastify's builder from package `name`, made at its first call. */
const lazyBuilder = (name: string) => {
  let build: Builder | undefined;
  return (schemas: unknown, options: unknown): unknown =>
    (build ??= (fromFastify(name) as () => Builder)())(schemas, options);
};

/**
 * Fastify's JSON-schema compilers (Ajv for validation, fast-json-stringify for serialization), the
 * very builders Fastify makes by default, but loaded the first time a route declares a JSON schema
 * instead of in Fastify's constructor. The contract's routes validate with zod (lib/route.ts) and
 * declare none, so a start loads neither: `Fastify()` took 102–116 ms for them on a 2-vCPU machine,
 * 5–6 ms without (issue 24 §5). Given as `schemaController.compilersFactory`; the one difference Fastify
 * makes for a factory given this way (`isCustomValidatorCompiler`) is that a route's `headers`
 * schema is handed to the compiler as written: its property names are not lower-cased, nor is it
 * checked for Fastify's warnings about references in it. No route declares one.
 */
export const lazySchemaCompilers = {
  buildValidator: lazyBuilder('@fastify/ajv-compiler') as NonNullable<Compilers['buildValidator']>,
  buildSerializer: lazyBuilder('@fastify/fast-json-stringify-compiler') as NonNullable<
    Compilers['buildSerializer']
  >,
};
