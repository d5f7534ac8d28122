import { z } from 'zod';
import { BrandId, brandIds } from '@numa/contract';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

/** `host=brand` pairs, comma-separated: `wephone.example.com=wephone,sms.example.cn=jiema`. */
const hostTable = z.string().transform((s, ctx) => {
  const table: Record<string, BrandId> = {};
  for (const pair of s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [host, brand] = pair.split('=').map((x) => x?.trim().toLowerCase());
    const parsed = BrandId.safeParse(brand);
    if (!host || !parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `BRAND_HOSTS entry "${pair}" is not host=brand (brands: ${brandIds.join(', ')})`,
      });
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
  /**
   * Where to listen. Default: 127.0.0.1 (this machine only) unless NODE_ENV=production, where it is
   * 0.0.0.0. A non-production start on another address is warned about at start (the simulators and
   * demo accounts are then reachable from the network; the /dev routes still answer loopback only).
   */
  HOST: z.string().min(1).optional(),
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
  /** Speech-to-text for voicemail and voice messages: the built-in simulator (default) or none (600000). */
  STT: z.enum(['simulator', 'none']).default('simulator'),
  /** Carrier adapter for SMS/MMS. */
  CARRIER: z.enum(['simulator', 'twilio']).default('simulator'),
  /** Twilio (CARRIER=twilio): the account SID and auth token (REST calls, webhook signatures). */
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'expected AC followed by 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
  /** The public base URL Twilio reaches this server at (webhooks, MMS media), e.g. https://numa.example.com. */
  TWILIO_WEBHOOK_BASE_URL: z.string().url().optional(),
  /** The Messaging Service that sends system messages (sign-in and verification codes) on Twilio. */
  TWILIO_MESSAGING_SERVICE_SID: z
    .string()
    .regex(/^MG[0-9a-fA-F]{32}$/, 'expected MG followed by 32 hex digits')
    .optional(),
  /** Twilio's REST API (tests point it at a local fake). */
  TWILIO_API_BASE_URL: z.string().url().default('https://api.twilio.com'),
  /**
   * Where rented numbers come from (issue 11): the built-in simulator, or Twilio (its number search,
   * buying and releasing; needs CARRIER=twilio, whose webhooks the numbers bought point at).
   */
  NUMBER_SUPPLY: z.enum(['simulator', 'twilio']).default('simulator'),
  /** Twilio: the regulatory Address and Bundle attached to numbers bought where a country asks (GB, AU). */
  TWILIO_ADDRESS_SID: z
    .string()
    .regex(/^AD[0-9a-fA-F]{32}$/, 'expected AD followed by 32 hex digits')
    .optional(),
  TWILIO_BUNDLE_SID: z
    .string()
    .regex(/^BU[0-9a-fA-F]{32}$/, 'expected BU followed by 32 hex digits')
    .optional(),
  /** Code-number supplier (verification codes): the built-in simulator (platform pool, simulated apps). */
  CODE_SUPPLIER: z.enum(['simulator']).default('simulator'),
  /** Simulator: when a simulated app sends its code after a lock (ms). */
  CODE_SIM_SEND_AFTER_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  /** Simulator: the share of locks whose app never sends (0 to 1), as real apps fail now and then. */
  CODE_SIM_FAIL_RATE: z.coerce.number().min(0).max(1).default(0),
  /** Prefix of this deployment's Redis keys and channels (socket.io adapter). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
    .default('numa'),
  /** The built web client; served with a fallback to index.html. */
  WEB_DIST: z.string().optional(),
  /**
   * Page origins allowed to open the chat socket besides the server's own hosts (comma-separated,
   * `https://app.example.com`): a socket whose browser Origin is neither the host it connects to,
   * nor a BRAND_HOSTS host of the same brand, nor listed here is refused (100003).
   */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const out: string[] = [];
      for (const item of s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        let origin: string | null = null;
        try {
          const u = new URL(item);
          if (
            (u.protocol === 'http:' || u.protocol === 'https:') &&
            u.origin === item.replace(/\/$/, '').toLowerCase()
          )
            origin = u.origin;
        } catch {
          origin = null;
        }
        if (!origin) {
          ctx.addIssue({
            code: 'custom',
            message: `ALLOWED_ORIGINS entry "${item}" is not an origin like https://app.example.com`,
          });
          return z.NEVER;
        }
        out.push(origin);
      }
      return out;
    }),
  /** Trust X-Forwarded-* from a load balancer. */
  TRUST_PROXY: bool.default(false),
  /** Largest JSON body, bytes. */
  BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576),
  /**
   * Multiplies every per-IP rate limit (code sends, login, captcha). Raise it where many users share
   * one address (a corporate proxy, an end-to-end test run); per-address limits are not affected.
   */
  IP_RATE_LIMIT_FACTOR: z.coerce.number().positive().max(10_000).default(1),
  /**
   * How long an authenticated session answers from memory without reading the database (ms; 0: every
   * call reads it). Logout, refresh, sign-in elsewhere and operator actions clear it at once, on every
   * server through Redis when REDIS_URL is set; a change made in the database by hand shows within it.
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /**
   * Proof of work of the captcha (services/pow.ts): the highest counter the client may have to find
   * (SHA-256 digests; on average 3/4 of it). 30,000 is about half a second in a browser's worker and
   * is done while the person reads the picture.
   */
  CAPTCHA_POW_MAX: z.coerce.number().int().min(2).max(10_000_000).default(30_000),
  /*
   * Flood limits (services/limits.ts): token buckets with a steady rate and a burst allowance. The
   * README's Configuration section explains how to tune them.
   */
  /** Socket events one socket may send per second, steady. */
  SOCKET_EVENTS_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(5),
  /** Events a socket may send above the steady rate; refilled over 10 s. */
  SOCKET_EVENTS_BURST: z.coerce.number().int().min(0).max(1_000_000).default(20),
  /** Socket events one account may send per second over all its sockets (all servers with Redis). */
  ACCOUNT_EVENTS_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(10),
  /** Events an account may send above its steady rate; refilled over 10 s. */
  ACCOUNT_EVENTS_BURST: z.coerce.number().int().min(0).max(1_000_000).default(40),
  /** Refused events in a row after which a socket is disconnected as a flooder. */
  SOCKET_FLOOD_STRIKES: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Seconds a disconnected flooder's token is refused at the handshake (100015). */
  SOCKET_FLOOD_HOLD_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  /** Weighted points of authenticated HTTP calls one account may spend per second, steady (a list read costs more than one). */
  ACCOUNT_CALLS_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(10),
  /** Points an account may spend above its steady rate; refilled over 60 s. */
  ACCOUNT_CALLS_BURST: z.coerce.number().int().min(0).max(1_000_000).default(300),
  /** Socket handshakes per IP per minute (multiplied by IP_RATE_LIMIT_FACTOR), checked before the token is looked up. */
  SOCKET_CONNECTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /*
   * Payments (issue 10; the README's Configuration section): the provider adapter, its credentials
   * and URLs.
   */
  /**
   * The card and wallet provider: `sandbox` (the default, our own provider page) or `stripe` (Checkout
   * Sessions for card, UnionPay cards, Alipay and WeChat Pay; crypto stays on the sandbox).
   */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
  /** Stripe's secret key (PAYMENT_PROVIDER=stripe). */
  STRIPE_SECRET_KEY: z.string().min(8).optional(),
  /** The signing secret of Stripe's webhook endpoint (`whsec_…`), pointed at <public URL>/pay/notify/stripe. */
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  /** Stripe's API (tests point it at a local fake). */
  STRIPE_API_BASE_URL: z.string().url().optional(),
  /**
   * The secret the sandbox signs its notifications with. Unset: a random one per process (the
   * sandbox posts to the process that served its page, so that works on any number of servers).
   */
  PAYMENT_SANDBOX_SECRET: z.string().min(16).optional(),
  /** PayPal's adapter: `sandbox` (the sandbox page stands in) or `paypal` (the hosted form and IPN). */
  PAYMENT_PAYPAL: z.enum(['sandbox', 'paypal']).default('sandbox'),
  /** PayPal's hosted button (PAYMENT_PAYPAL=paypal). */
  PAYPAL_HOSTED_BUTTON_ID: z.string().min(1).optional(),
  /** Where the hosted form posts. */
  PAYPAL_FORM_URL: z.string().url().default('https://www.paypal.com/cgi-bin/webscr'),
  /** Where notifications are posted back for verification (tests point it at a local fake). */
  PAYPAL_VERIFY_URL: z.string().url().default('https://ipnpb.paypal.com/cgi-bin/webscr'),
  /** Our PayPal account's e-mail: notifications paid to another receiver are refused. */
  PAYPAL_RECEIVER_EMAIL: z.string().email().optional(),
  /** Top-up submits one account may make per UTC day (200040 past it). */
  PAYMENT_DAILY_ATTEMPTS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Minutes a card or wallet order waits for its payment before it expires (crypto: 48 hours). */
  PAYMENT_ORDER_TTL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(120),
  /**
   * The public base URL providers and payers reach this server at (provider pages, webhooks, return
   * links), e.g. https://numa.example.com. Unset: the request's own scheme and host.
   */
  PAYMENT_PUBLIC_URL: z.string().url().optional(),
  /** Check every response against the contract (on in tests). */
  VALIDATE_RESPONSES: bool.optional(),
});

export type Env = Omit<z.infer<typeof EnvSchema>, 'HOST'> & { HOST: string };

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const env = result.data;
  return { ...env, HOST: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1') };
}

export const isDev = (env: Env) => env.NODE_ENV !== 'production';
