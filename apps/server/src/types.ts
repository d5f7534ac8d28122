import type { Brand, Lang, LanguageCode } from '@numa/contract';
import type { FastifyRequest } from 'fastify';
import type { Env } from './env';
import type { Jobs } from './jobs';
import type { BrandResolver } from './lib/brand';
import type { Clock } from './lib/clock';
import type { Metrics } from './metrics';
import type { CarrierPort } from './providers/carrier/port';
import type { MailPort } from './providers/mail/port';
import type { SttPort } from './providers/stt/port';
import type { RealtimeHub } from './realtime/hub';
import type { AccountService } from './services/accounts';
import type { ApiKeyService } from './services/apiKeys';
import type { ApiLimits } from './services/apiLimits';
import type { CaptchaService } from './services/captcha';
import type { CatalogueService } from './services/catalogue';
import type { CellPlanService } from './services/cellPlans';
import type { ChatService } from './services/chats';
import type { CodesService } from './services/codes';
import type { CodesOperator } from './services/codes/operator';
import type { ContactService } from './services/contacts';
import type { TemplateService } from './services/templates';
import type { ScheduledService } from './services/scheduled';
import type { DemoService } from './services/demo';
import type { DevService } from './services/dev';
import type { HealthService } from './services/health';
import type { InviteService } from './services/invite';
import type { Limits } from './services/limits';
import type { MediaService } from './services/media';
import type { NumbersService } from './services/rentals/numbers/assign';
import type { SubscriptionService } from './services/subscriptions';
import type { CallService } from './services/calls';
import type { NumberSupplyPort } from './providers/numbers';
import type { OperatorService } from './services/operator';
import type { PaymentService } from './services/payments';
import type { PowService } from './services/pow';
import type { Pricing } from './services/pricing';
import type { ProfileService } from './services/profile';
import type { ReviewService } from './services/review';
import type { SessionService } from './services/sessions';
import type { SigninService } from './services/signin';
import type { VerifyService } from './services/verify';
import type { SmsActivateService } from './services/smsActivate';
import type { WebhookService } from './services/webhooks';
import type { PushService } from './services/push';

/**
 * What the app is made of, built once in app.ts and reachable as `app.deps`: configuration, the
 * clock, providers, the jobs queue and one service per area. Routes and the socket layer call these
 * services only; the database is not among them (services hold it; lint keeps it out of routes).
 */
export interface Deps {
  env: Env;
  dev: boolean;
  clock: Clock;
  brandOf: BrandResolver;
  // providers
  carrier: CarrierPort;
  mail: MailPort;
  stt: SttPort;
  /** Pushes stored messages to the sockets of an account (on every server with the Redis adapter). */
  realtime: RealtimeHub;
  /** The one queue for work that runs later or on a schedule. */
  jobs: Jobs;
  /** What anything costs, per brand. */
  pricing: Pricing;
  /** This app's Prometheus metrics (src/metrics; README "Metrics"). */
  metrics: Metrics;
  // services, by area
  accounts: AccountService;
  /** API keys of /api/v1 and handler_api (issue 21): made, listed, revoked, authenticated. */
  apiKeys: ApiKeyService;
  /** Per-key rate limits of /api/v1 and handler_api (RateLimit fields). */
  apiLimits: ApiLimits;
  captcha: CaptchaService;
  /**
   * What a solved captcha may lead to (confirmCaptcha's `nextApi`), by path. Areas that offer a
   * captcha-protected call register it here; `params` are that call's own input, validated by it.
   */
  captchaNext: Map<string, CaptchaNext>;
  catalogue: CatalogueService;
  /** The embedded plans page: US cell phone plans, lines and orders. */
  cellPlans: CellPlanService;
  /** Messages: sending rules, storing and charging, the carrier job, inbound delivery, the chat screen's reads. */
  chats: ChatService;
  codes: CodesService;
  codesOperator: CodesOperator;
  contacts: ContactService;
  /** Saved replies (issue 22 §3). */
  templates: TemplateService;
  scheduled: ScheduledService;
  demo: DemoService;
  devTools: DevService;
  health: HealthService;
  invite: InviteService;
  /** Flood limits of sockets and accounts (token buckets, before any database work). */
  limits: Limits;
  media: MediaService;
  numbers: NumbersService;
  /** Where rentable numbers come from (simulator by default). */
  numberSupply: NumberSupplyPort;
  /** Calls to our numbers: forwarding / voicemail switches, call records and their charges. */
  calls: CallService;
  /** Number rental: catalogue, subscribe, renewals (jobs), history. */
  subscriptions: SubscriptionService;
  operator: OperatorService;
  /** Top-up: methods, orders, provider notifications, the payment / bill / SMS histories. */
  payments: PaymentService;
  /** Proof of work that goes with each captcha drawing (the calls that send codes check it). */
  pow: PowService;
  profile: ProfileService;
  review: ReviewService;
  sessions: SessionService;
  signin: SigninService;
  verify: VerifyService;
  /** Webhook endpoints, their events, signed deliveries and retries (issue 21). */
  webhooks: WebhookService;
  /** Web Push: the account's devices and their notifications (issue 23). */
  push: PushService;
  /** The SMS-Activate protocol over the codes service (/stubs/handler_api.php, issue 21). */
  smsActivate: SmsActivateService;
}

export type CaptchaNext = (p: {
  req: FastifyRequest;
  ctx: RequestContext;
  params: Record<string, unknown>;
}) => Promise<unknown>;

/** Read on every call (spec 000 §7): the host's brand and the caller's language. */
export interface RequestContext {
  brand: Brand;
  lang: Lang;
  languagecode: LanguageCode;
  webVersion: string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
  interface FastifyRequest {
    ctx: RequestContext;
  }
}
