import type { Brand, Lang, LanguageCode } from '@numa/contract';
import type { Database } from './db';
import type { Env } from './env';
import type { MailPort } from './providers/mail/port';
import type { CarrierPort } from './providers/carrier/port';
import type { CaptchaService } from './services/captcha';
import type { CodeService } from './services/codes';
import type { SessionService } from './services/sessions';
import type { FastifyRequest } from 'fastify';
import type { BrandResolver } from './lib/brand';
import type { MediaService } from './services/media';
import type { ChatService } from './services/chats';
import type { RealtimeHub } from './realtime/hub';
import type { SttPort } from './providers/stt/port';

/** What the app is made of; built once in app.ts, reachable as `app.deps`. */
export interface Deps {
  env: Env;
  dev: boolean;
  db: Database;
  mail: MailPort;
  carrier: CarrierPort;
  brandOf: BrandResolver;
  sessions: SessionService;
  codes: CodeService;
  captcha: CaptchaService;
  /**
   * What a solved captcha may lead to (confirmCaptcha's `nextApi`), by path. Areas that offer a
   * captcha-protected call register it here; `params` are that call's own input, validated by it.
   */
  captchaNext: Map<string, CaptchaNext>;
  media: MediaService;
  /** Messages: sending rules, storing and charging, the carrier work queue, inbound delivery. */
  chats: ChatService;
  /** Pushes stored messages to the sockets of an account (on every server with the Redis adapter). */
  realtime: RealtimeHub;
  stt: SttPort;
}

export type CaptchaNext = (p: { req: FastifyRequest; ctx: RequestContext; params: Record<string, unknown> }) => Promise<unknown>;

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
