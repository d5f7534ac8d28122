import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import type { CarrierPort, CarrierSink, InboundMessage } from '../../providers/carrier/port';
import type { SttPort } from '../../providers/stt/port';
import type { RealtimeHub } from '../../realtime/hub';
import { rateEventsRepo } from '../../repositories/rateEvents';
import type { MediaService } from '../media';
import type { Pricing } from '../pricing';
import { createInbound } from './inbound';
import { createChatPages } from './pages';
import { createChatReads } from './reads';
import { createChatSearch } from './search';
import { captchaSolvedKey, createSendingRules, type RulesOptions } from './rules';
import { createSendPath, type SendOptions } from './send';

export type { MessageRow } from '../../repositories/messages';
export type { Sender } from './rules';
export type { SendResult } from './send';
export { toReceiveMessage } from './views';

export type ChatOptions = RulesOptions & SendOptions;

export const defaultChatOptions: ChatOptions = {
  newRecipientLimit: 10,
  newRecipientWindowMs: 10 * 60_000,
  maxAttempts: 3,
  retryDelayMs: 2_000,
  carrierTimeoutMs: 20_000,
};

/**
 * Messages (docs/architecture.md): the sending rules (rules.ts), the send path with its carrier job
 * (send.ts), inbound messages (inbound.ts) and the chat screen's reads (reads.ts). Every message is
 * stored, and an outgoing one charged in the same transaction, before the carrier sees it.
 */
export function createChatService(deps: {
  db: Database;
  jobs: Jobs;
  carrier: CarrierPort;
  media: MediaService;
  realtime: RealtimeHub;
  pricing: Pricing;
  stt: SttPort;
  log: FastifyBaseLogger;
  options?: Partial<ChatOptions>;
  /** Inbound SMS to a verification-code number of the pool go to the codes service. */
  codeInbound?: (m: InboundMessage) => Promise<{ delivered: boolean } | null>;
}) {
  const { db, carrier, log } = deps;
  const options: ChatOptions = { ...defaultChatOptions, ...deps.options };
  const rules = createSendingRules({ db, pricing: deps.pricing, options });
  const sendPath = createSendPath({ ...deps, rules, log, options });
  const inbound = createInbound(deps);
  const sink: CarrierSink = { inbound, status: sendPath.status };
  carrier.attach(sink);

  return {
    options,
    ...createChatReads(deps),
    ...createChatPages(deps),
    ...createChatSearch(deps),
    send: sendPath.send,
    resume: sendPath.resume,
    sink,

    /** A captcha solved by the account lets it start new conversations again. */
    async captchaSolved(accountId: number) {
      await rateEventsRepo.record(db.q, captchaSolvedKey(accountId));
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
