import { z } from 'zod';
import { BrandId, brandIds } from '@numa/contract';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** `host=brand` pairs, comma-separated: `wephone.example.com=wephone,sms.example.cn=jiema`. */
const hostTable = z
  .string()
  .transform((s, ctx) => {
    const table: Record<string, BrandId> = {};
    for (const pair of s.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [host, brand] = pair.split('=').map((x) => x?.trim().toLowerCase());
      const parsed = BrandId.safeParse(brand);
      if (!host || !parsed.success) {
        ctx.addIssue({ code: 'custom', message: `BRAND_HOSTS entry "${pair}" is not host=brand (brands: ${brandIds.join(', ')})` });
        return z.NEVER;
      }
      table[host] = parsed.data;
    }
    return table;
  });

/**
 * Every environment variable the server reads, validated in one place. The README's Configuration
 * section lists the same names.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Local data: the embedded database (`pg/`) and media files (`media/`). */
  DATA_DIR: z.string().default('./data'),
  /** A PostgreSQL server; when unset the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z.string().url().optional(),
  /** Redis: socket.io adapter and shared rate limits, for several server processes. */
  REDIS_URL: z.string().url().optional(),
  /** Extra or overriding host → brand pairs. `<brand>.<anything>` hosts map by their first label. */
  BRAND_HOSTS: hostTable.default({}),
  DEFAULT_BRAND: BrandId.default('numa'),
  /** Where the main brand sends mobile browsers. Empty: no redirect. */
  MOBILE_SITE_URL: z.string().default('https://m.numa.app'),
  /** SMTP server for e-mailed codes (nodemailer URL). When unset, mail goes to the simulator. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Numa <no-reply@numa.app>'),
  /** Carrier adapter for SMS/MMS. */
  CARRIER: z.enum(['simulator', 'twilio']).default('simulator'),
  /** Twilio (CARRIER=twilio): the account SID and auth token (REST calls, webhook signatures). */
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'expected AC followed by 32 hex digits').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
  /** The public base URL Twilio reaches this server at (webhooks, MMS media), e.g. https://numa.example.com. */
  TWILIO_WEBHOOK_BASE_URL: z.string().url().optional(),
  /** The Messaging Service that sends system messages (sign-in and verification codes) on Twilio. */
  TWILIO_MESSAGING_SERVICE_SID: z.string().regex(/^MG[0-9a-fA-F]{32}$/, 'expected MG followed by 32 hex digits').optional(),
  /** Twilio's REST API (tests point it at a local fake). */
  TWILIO_API_BASE_URL: z.string().url().default('https://api.twilio.com'),
  /** Prefix of this deployment's Redis keys and channels (socket.io adapter). */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/).default('numa'),
  /** The built web client; served with a fallback to index.html. */
  WEB_DIST: z.string().optional(),
  /** Trust X-Forwarded-* from a load balancer. */
  TRUST_PROXY: bool.default(false),
  /** Largest JSON body, bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /**
   * Multiplies every per-IP rate limit (code sends, login, captcha). Raise it where many users share
   * one address (a corporate proxy, an end-to-end test run); per-address limits are not affected.
   */
  IP_RATE_LIMIT_FACTOR: z.coerce.number().positive().max(10_000).default(1),
  /** Check every response against the contract (on in tests). */
  VALIDATE_RESPONSES: bool.optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  return result.data;
}

export const isDev = (env: Env) => env.NODE_ENV !== 'production';
