import { z } from 'zod';
import { BrandId, brandIds } from '@numa/contract';
import { resolveSelectors } from './providers/requirements';

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

/** `key=value` pairs, comma-separated (letters, digits, `_.-` on both sides). */
const pairs = (name: string) =>
  z
    .string()
    .default('')
    .transform((s, ctx) => {
      const out: Record<string, string> = {};
      for (const pair of s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([A-Za-z0-9_.-]+)=([A-Za-z0-9_.-]+)$/.exec(pair);
        if (!m) {
          ctx.addIssue({ code: 'custom', message: `${name} entry "${pair}" is not key=value` });
          return z.NEVER;
        }
        out[m[1]!] = m[2]!;
      }
      return out;
    });

/**
 * Every environment variable the server reads, validated in one place. The README's Configuration
 * section lists the same names.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * A deliberate demo deployment (issue 18 §1): with NODE_ENV=production, the simulators and the
   * payment sandbox may run (they are the defaults, as in development) and every page shows a
   * "Demo: no real money" banner. Without it a production start never runs a simulator.
   */
  DEMO_MODE: bool.default(false),
  /**
   * Where to listen. Default: 127.0.0.1 (this machine only) unless NODE_ENV=production, where it is
   * 0.0.0.0. A non-production start on another address is warned about at start (the simulators and
   * demo accounts are then reachable from the network; the /dev routes still answer loopback only).
   */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /*
   * Metrics (issue 18 §8; README "Metrics"): Prometheus text at /metrics, never on the main port
   * unless METRICS_TOKEN is set.
   */
  /** A separate port answering GET /metrics only (0: any free port). Unset: no separate listener. */
  METRICS_PORT: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  /** Where the metrics port listens: this machine only unless told otherwise. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * A bearer token: when set, /metrics also answers on the main port to `Authorization: Bearer
   * <token>` (401 otherwise), and the metrics port asks for it too. Unset: the main port has no /metrics.
   */
  METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .min(32, 'at least 32 characters (e.g. openssl rand -hex 32)')
      .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
      .optional(),
  ),
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
  /*
   * Providers (issue 18 §1): each kind's adapter is picked by one variable, declared with what it
   * needs in providers/<kind>/requirements.ts. Unset, it is the simulator outside production (and
   * with DEMO_MODE=1); in production it stays unset: payment groups are then not offered, and any
   * other kind refuses the start (server.ts) until a real adapter is configured or it is switched off.
   */
  /** E-mail: `smtp` (SMTP_URL; implied when SMTP_URL is set), `simulator`, or `none` (no codes by e-mail: 100031). */
  MAIL: z.enum(['simulator', 'smtp', 'none']).optional(),
  /** SMTP server for e-mailed codes (nodemailer URL). */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Numa <no-reply@numa.app>'),
  /**
   * Speech-to-text for voicemail and voice messages: the built-in simulator, none (600000),
   * or `openai`: an OpenAI-compatible transcription endpoint (OpenAI, or a Whisper server speaking its
   * API) at STT_API_URL with STT_API_KEY.
   */
  STT: z.enum(['simulator', 'none', 'openai']).optional(),
  /** STT=openai: the API's base, `https://api.openai.com/v1` or a compatible server's `…/v1`. */
  STT_API_URL: z.string().url().default('https://api.openai.com/v1'),
  /** STT=openai: the API key (a self-hosted server that checks none takes any value). */
  STT_API_KEY: z.string().min(1).optional(),
  /** STT=openai: the transcription model (`whisper-1`, `gpt-4o-transcribe`, `gpt-4o-mini-transcribe`, a server's own name). */
  STT_MODEL: z.string().min(1).default('whisper-1'),
  /** STT=openai: one request's time limit (ms); a long recording is several requests. */
  STT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** STT=openai: the SDK's retries of rate limits, 5xx and broken connections (with its backoff). */
  STT_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  /** STT=openai: the provider's largest upload, bytes (OpenAI: 25 MB). */
  STT_MAX_UPLOAD_BYTES: z.coerce.number().int().min(1_048_576).max(1_073_741_824).default(26_214_400),
  /** STT=openai: a recording longer than this (seconds) is sent in parts cut at pauses. */
  STT_CHUNK_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
  /** Carrier adapter for SMS/MMS (required in production: no product without it). */
  CARRIER: z.enum(['simulator', 'twilio']).optional(),
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
  NUMBER_SUPPLY: z.enum(['simulator', 'twilio', 'none']).optional(),
  /** Twilio: the regulatory Address and Bundle attached to numbers bought where a country asks (GB, AU). */
  TWILIO_ADDRESS_SID: z
    .string()
    .regex(/^AD[0-9a-fA-F]{32}$/, 'expected AD followed by 32 hex digits')
    .optional(),
  TWILIO_BUNDLE_SID: z
    .string()
    .regex(/^BU[0-9a-fA-F]{32}$/, 'expected BU followed by 32 hex digits')
    .optional(),
  /**
   * Code-number supplier (verification codes): the built-in simulator (platform pool, simulated apps),
   * `smsactivate` (a supplier speaking the SMS-Activate protocol: SMS-Activate itself and the servers
   * compatible with it) or `5sim` (5sim's REST API). With CODE_SUPPLIER_FAILOVER, the first of the
   * suppliers asked (the operator may order them per app and country: `codes supplier-order`).
   */
  CODE_SUPPLIER: z.enum(['simulator', 'smsactivate', '5sim', 'none']).optional(),
  /** The suppliers asked after CODE_SUPPLIER when it has no number or fails, in order (`5sim`, `smsactivate`). */
  CODE_SUPPLIER_FAILOVER: z
    .string()
    .default('')
    .transform((s, ctx) => {
      const names = s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      for (const n of names)
        if (n !== 'smsactivate' && n !== '5sim') {
          ctx.addIssue({
            code: 'custom',
            message: `CODE_SUPPLIER_FAILOVER: "${n}" is not smsactivate or 5sim`,
          });
          return z.NEVER;
        }
      return names as ('smsactivate' | '5sim')[];
    }),
  /** SMS-Activate: the supplier's handler_api.php address. */
  CODE_SUPPLIER_URL: z.string().url().default('https://api.sms-activate.org/stubs/handler_api.php'),
  /** SMS-Activate: the API key (`api_key`). */
  CODE_SUPPLIER_API_KEY: z.string().min(8).optional(),
  /** Real suppliers: how often a live activation is asked for its SMS (ms, through the jobs queue). */
  CODE_SUPPLIER_POLL_MS: z.coerce.number().int().min(1000).max(60_000).default(5000),
  /** SMS-Activate: `app=service` pairs over the built-in SMS-Activate service codes (`whatsapp=wa,…`). */
  CODE_SUPPLIER_SERVICES: pairs('CODE_SUPPLIER_SERVICES'),
  /** SMS-Activate: `ISO=id` pairs over the built-in country ids (`US=187,GB=16,…`). */
  CODE_SUPPLIER_COUNTRIES: pairs('CODE_SUPPLIER_COUNTRIES'),
  /**
   * SMS-Activate: the most it may charge per unit of the user's code fee, by the fee's currency
   * (`usd=90,cny=12.5`: a $0.25 fee allows 22.50 in the account's currency). Sent as maxPrice; a
   * number sold above it is given back. Lower it to keep a margin.
   */
  CODE_SUPPLIER_PRICE_RATES: pairs('CODE_SUPPLIER_PRICE_RATES'),
  /** 5sim: the API key from the 5sim profile (a bearer token). */
  FIVESIM_API_KEY: z.string().min(8).optional(),
  /** 5sim: the API's base. */
  FIVESIM_URL: z.string().url().default('https://5sim.net/v1'),
  /** 5sim: `app=product` pairs where 5sim's product name is not our app id. */
  FIVESIM_PRODUCTS: pairs('FIVESIM_PRODUCTS'),
  /** 5sim: `ISO=name` pairs over the built-in country names (`US=usa,GB=england,…`). */
  FIVESIM_COUNTRIES: pairs('FIVESIM_COUNTRIES'),
  /** 5sim: the operator to buy from: `any` (the cheapest; maxPrice applies to it only) or a name 5sim lists. */
  FIVESIM_OPERATOR: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/)
    .default('any'),
  /** 5sim: the most it may charge per unit of the user's code fee, by currency (`usd=90,cny=12.5`). */
  FIVESIM_PRICE_RATES: pairs('FIVESIM_PRICE_RATES'),
  /**
   * Where the applist front page's Next goes: our own public page for an app and country. `{app}` and
   * `{country}` are filled in; a path is on this site, a full URL opens in a new tab.
   */
  CODES_PUBLIC_PAGE_URL: z.string().min(1).default('/receive/{app}/{country}'),
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
   * Web Push (issue 23): the VAPID key pair (base64url, as `web-push generate-vapid-keys` prints them).
   * Unset, the server makes a pair once and keeps it in the database (every server then uses it);
   * set both to give your own (they must stay the same: browsers' subscriptions are tied to the
   * public key). VAPID_SUBJECT is the contact push services may write to (mailto: or https:).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'Expected a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'Expected a base64url P-256 private key')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'Expected mailto:… or https://…')
    .default('mailto:support@numa.app'),
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
  /**
   * Verification-code locks (lockVerificationCodePhone) one account may take in a minute and in an
   * hour, all servers together with Redis (issue 18): on top of the cap of live locks, so one account
   * cannot churn through a pool (or a supplier's activations). Checked before any database work.
   */
  CODE_LOCKS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(10),
  CODE_LOCKS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /**
   * Calls one API key may make a minute on /api/v1 and /stubs/handler_api.php (issue 21), all servers
   * together with Redis; answers carry the RateLimit fields. The account's own budget
   * (ACCOUNT_CALLS_*) applies too, shared with its web page.
   */
  API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /** Socket handshakes per IP per minute (multiplied by IP_RATE_LIMIT_FACTOR), checked before the token is looked up. */
  SOCKET_CONNECTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  /*
   * Payments (issue 10; the README's Configuration section): the provider adapter, its credentials
   * and URLs.
   */
  /**
   * The card and wallet provider: `sandbox` (our own provider page; never in production without
   * DEMO_MODE), `stripe` (Checkout Sessions for card, UnionPay cards, Alipay and WeChat Pay) or `none`.
   */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe', 'none']).optional(),
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
  /**
   * PayPal's adapter: `sandbox` (the sandbox page stands in), `paypal` (Orders v2 through PayPal's
   * server SDK, webhooks verified with PayPal's certificate; needs the PAYPAL_* credentials below) or
   * `none` (not offered).
   */
  PAYMENT_PAYPAL: z.enum(['sandbox', 'paypal', 'none']).optional(),
  /** Which PayPal: `sandbox` (api-m.sandbox.paypal.com, test accounts) or `live` (real money). */
  PAYPAL_ENVIRONMENT: z.enum(['sandbox', 'live']).default('sandbox'),
  /** The REST app's client id and secret (PayPal Developer Dashboard → Apps & Credentials). */
  PAYPAL_CLIENT_ID: z.string().min(8).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(8).optional(),
  /** The id of the app's webhook pointed at <public URL>/pay/notify/paypal (every signature covers it). */
  PAYPAL_WEBHOOK_ID: z
    .string()
    .regex(/^[A-Za-z0-9]{1,64}$/, 'expected the webhook id PayPal shows (letters and digits)')
    .optional(),
  /** Prefix of the invoice_id sent with each order (PayPal refuses an invoice id used before on the account). */
  PAYPAL_INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,32}$/)
    .default('numa-'),
  /** PayPal's API (tests point it at a local stand-in); PAYPAL_ENVIRONMENT's host by default. */
  PAYPAL_API_BASE_URL: z.string().url().optional(),
  /**
   * The crypto methods' adapter (cryptoPay and the direct transfers): `sandbox` (the sandbox page
   * stands in), `btcpay` (a BTCPay Server store through its Greenfield API; needs BTCPAY_*) or `none`
   * (not offered).
   */
  PAYMENT_CRYPTO: z.enum(['sandbox', 'btcpay', 'none']).optional(),
  /** The BTCPay Server, e.g. https://pay.example.com. */
  BTCPAY_URL: z.string().url().optional(),
  /** A Greenfield API key for the store (view and create invoices, view the store's settings; refunds: modify it). */
  BTCPAY_API_KEY: z.string().min(8).optional(),
  BTCPAY_STORE_ID: z.string().min(8).max(100).optional(),
  /** The secret of the store's webhook pointed at <public URL>/pay/notify/btcpay. */
  BTCPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
  /**
   * Coin (and network) → the store's payment method id, over the built-in `ETH=ETH-CHAIN,BCH=BCH-CHAIN`:
   * `USDT.TRC-20=<id>,USDC.Polygon=<id>,…` as the store's plugins name them. A coin without one, or
   * whose method the store has not enabled, is not offered.
   */
  BTCPAY_PAYMENT_METHODS: pairs('BTCPAY_PAYMENT_METHODS'),
  /** How long a BTCPay invoice's quote holds, minutes (unset: the store's setting, 15 by default). */
  BTCPAY_INVOICE_EXPIRATION_MINUTES: z.coerce.number().int().min(1).max(2880).optional(),
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
  const env = resolveSelectors(result.data);
  return { ...env, HOST: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1') };
}

export const isDev = (env: Env) => env.NODE_ENV !== 'production';
