import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import type * as IoRedis from 'ioredis';
import type Stripe from 'stripe';

/**
 * Packages that only some starts or some requests use are loaded when first used, not when the
 * server starts (issue 24 §5: every package loaded before listening is start-up time): the Redis
 * client (REDIS_URL only), the canvas (captcha pictures and the app icons), Stripe's SDK
 * (PAYMENT_PROVIDER=stripe only). CommonJS packages, loaded synchronously; their types are `import
 * type`, erased from the build.
 */
const load = createRequire(import.meta.url);

export const lazy = {
  ioredis: () => load('ioredis') as typeof IoRedis,
  canvas: () => load('@napi-rs/canvas') as typeof Canvas,
  /** The SDK's constructor (its CommonJS build exports it as the module itself). */
  stripe: () => {
    const m = load('stripe') as { default?: unknown };
    return (m.default ?? m) as typeof Stripe;
  },
};
