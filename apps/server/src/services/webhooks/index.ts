import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { brands, fromMinor, toMinor, type Minor } from '@numa/contract';
import {
  developerLimits,
  type WebhookEventType,
  webhookTestEventType,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@numa/contract/developer';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import type { Clock } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import { keptReads } from '../../lib/keptReads';
import type { MailPort } from '../../providers/mail/port';
import type { RealtimeHub } from '../../realtime/hub';
import { accountsRepo } from '../../repositories/accounts';
import { webhooksRepo, type DeliveryRow, type EndpointRow } from '../../repositories/webhooks';
import { checkUserUrl, type UrlPolicy } from './guard';
import { defineWebhookDelivery } from './deliver';
import { eventOf, msgIdOf, parseEvents, type OutgoingEvent } from './events';

export { UrlRefused, type UrlPolicy } from './guard';
export {
  webhookBackoffMs,
  webhookDisableAfterMs,
  webhookLogKeepMs,
  webhookMaxAttempts,
  webhookTimeoutMs,
} from './deliver';

export interface WebhookServiceDeps {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  mail: MailPort;
  realtime: RealtimeHub;
  log: FastifyBaseLogger;
  policy: UrlPolicy;
  /** How long an account's endpoints are kept in memory between events (local changes clear it). */
  cacheMs: number;
}

/**
 * Webhooks (issue 21): an account's endpoints with the events they want; every event the hub emits
 * on this server (messages received and their status, code SMS, renewal failures) and every balance
 * falling below an endpoint's threshold becomes one delivery per endpoint (once: a delivery row per
 * endpoint and event id), signed by the Standard Webhooks scheme with the endpoint's secret
 * (`standardwebhooks`), tried by the jobs queue at once and then on webhookBackoffMs for a day. An
 * endpoint failing for a day is switched off and its owner e-mailed. Every try goes to an address
 * the URL policy allows, checked at that try (guard.ts).
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, jobs, clock, mail, log, policy } = deps;
  // an account's events at once (a batch of its scheduled messages, a burst of texts) share one read
  const cache = keptReads<number, EndpointRow[]>(deps.cacheMs);
  const endpointsOf = (accountId: number) =>
    cache.get(accountId, () => webhooksRepo.endpointsOf(db.q, accountId));

  const brandOf = async (accountId: number) => (await accountsRepo.byId(db.q, accountId))?.brand ?? 'numa';

  function toEndpoint(e: EndpointRow, brand: keyof typeof brands): WebhookEndpoint {
    return {
      id: String(e.id),
      url: e.url,
      description: e.description,
      events: parseEvents(e.events),
      enabled: e.enabled,
      disabledReason:
        e.disabledReason === 'failing' || e.disabledReason === 'owner' ? e.disabledReason : null,
      balanceThreshold:
        e.balanceThreshold === null
          ? null
          : Number(fromMinor(e.balanceThreshold).toFixed(brands[brand].currency.decimals)),
      createdAt: e.createdAt.getTime(),
      secret: e.secret,
    };
  }

  const toDelivery = (d: DeliveryRow): WebhookDelivery => ({
    id: String(d.id),
    msgId: d.msgId,
    type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.getTime(),
    nextAttemptAt: d.nextAttemptAt ? d.nextAttemptAt.getTime() : null,
  });

  const checkUrl = (url: string) => checkUserUrl(url, policy, 'url');

  /** Writes one delivery per endpoint (once per event id) with its job, and runs the jobs now. */
  async function enqueue(accountId: number, targets: EndpointRow[], e: OutgoingEvent) {
    if (!targets.length) return [];
    const msgId = msgIdOf(e.key);
    const payload = JSON.stringify({
      type: e.type,
      timestamp: new Date(clock.now()).toISOString(),
      data: e.data,
    });
    const made = await db.tx(async (tx) => {
      const out = [];
      for (const t of targets) {
        const d = await webhooksRepo.insertDelivery(tx, {
          endpointId: t.id,
          accountId,
          msgId,
          eventType: e.type,
          payload,
        });
        if (!d) continue;
        const job = await jobs.enqueueClaimed(
          tx,
          'webhooks.deliver',
          { deliveryId: d.id },
          { dedupeKey: idemKey('webhook', d.id) },
        );
        out.push({ d, job });
      }
      return out;
    });
    for (const m of made) jobs.run(m.job);
    return made.map((m) => m.d);
  }

  /** An event of the account: to its enabled endpoints that asked for its type. */
  async function dispatch(accountId: number, e: OutgoingEvent) {
    const all = await endpointsOf(accountId);
    const targets = all.filter(
      (t) => t.enabled && parseEvents(t.events).includes(e.type as WebhookEventType),
    );
    await enqueue(accountId, targets, e);
  }

  /** What the hub's events mean for webhooks. */
  const stopListening = deps.realtime.listen((ev) => {
    const made = eventOf(ev);
    if (!made) return;
    dispatch(made.accountId, made.event).catch((err: unknown) =>
      log.error({ err, type: made.event.type }, 'webhook event not queued'),
    );
  });

  /** balance.low: a committed balance below an endpoint's threshold (once per crossing). */
  async function balanceChanged(accountId: number, balance: Minor | undefined) {
    const all = await endpointsOf(accountId);
    if (!all.some((e) => e.balanceThreshold !== null && parseEvents(e.events).includes('balance.low')))
      return;
    const account = await accountsRepo.byId(db.q, accountId);
    if (!account) return;
    const now = balance ?? account.balance;
    const crossed = await webhooksRepo.balanceCrossed(db.q, accountId, now);
    if (crossed.length) cache.delete(accountId);
    for (const e of crossed) {
      await enqueue(accountId, [e], {
        type: 'balance.low',
        key: `balance:${e.id}:${clock.now()}`,
        data: {
          balance: fromMinor(now),
          threshold: fromMinor(e.balanceThreshold ?? (0 as Minor)),
          unit: brands[account.brand].currency.label.en,
        },
      });
    }
  }
  const stopBalances = db.onBalancesCommitted((ids, _from, known) => {
    for (const id of ids)
      balanceChanged(id, known?.get(id)).catch((err: unknown) =>
        log.error({ err, accountId: id }, 'balance.low check failed'),
      );
  });

  defineWebhookDelivery({ db, jobs, clock, mail, log, policy, forget: (id) => cache.delete(id) });

  const mustOwn = async (accountId: number, id: string) => {
    const e = /^\d{1,15}$/.test(id) ? await webhooksRepo.endpoint(db.q, accountId, Number(id)) : null;
    if (!e) throw new ApiError(100002, null, 'no such webhook endpoint');
    return e;
  };

  return {
    async list(accountId: number): Promise<WebhookEndpoint[]> {
      const brand = await brandOf(accountId);
      return (await webhooksRepo.endpointsOf(db.q, accountId)).map((e) => toEndpoint(e, brand));
    },

    async create(
      accountId: number,
      p: { url: string; description: string; events: readonly string[]; balanceThreshold: number | null },
    ): Promise<WebhookEndpoint> {
      await checkUrl(p.url);
      if ((await webhooksRepo.countEndpoints(db.q, accountId)) >= developerLimits.endpoints)
        throw new ApiError(400000, null, `at most ${developerLimits.endpoints} webhook endpoints`);
      const row = await webhooksRepo.insertEndpoint(db.q, {
        accountId,
        url: p.url,
        description: p.description,
        events: [...new Set(p.events)].join(','),
        secret: `whsec_${randomBytes(32).toString('base64')}`,
        balanceThreshold: p.balanceThreshold === null ? null : toMinor(p.balanceThreshold),
      });
      cache.delete(accountId);
      return toEndpoint(row, await brandOf(accountId));
    },

    async update(
      accountId: number,
      id: string,
      p: {
        url?: string | undefined;
        description?: string | undefined;
        events?: readonly string[] | undefined;
        balanceThreshold?: number | null | undefined;
        enabled?: boolean | undefined;
      },
    ): Promise<WebhookEndpoint> {
      const e = await mustOwn(accountId, id);
      if (p.url !== undefined) await checkUrl(p.url);
      const row = await webhooksRepo.updateEndpoint(db.q, accountId, e.id, {
        ...(p.url !== undefined ? { url: p.url } : {}),
        ...(p.description !== undefined ? { description: p.description } : {}),
        ...(p.events !== undefined ? { events: [...new Set(p.events)].join(',') } : {}),
        ...(p.balanceThreshold !== undefined
          ? { balanceThreshold: p.balanceThreshold === null ? null : toMinor(p.balanceThreshold) }
          : {}),
        ...(p.enabled !== undefined ? { enabled: p.enabled } : {}),
      });
      cache.delete(accountId);
      return toEndpoint(row ?? e, await brandOf(accountId));
    },

    async remove(accountId: number, id: string): Promise<void> {
      const e = await mustOwn(accountId, id);
      await webhooksRepo.deleteEndpoint(db.q, accountId, e.id);
      cache.delete(accountId);
    },

    async deliveries(accountId: number, id: string, before?: string | undefined) {
      const e = await mustOwn(accountId, id);
      const b = before && /^\d{1,15}$/.test(before) ? Number(before) : null;
      const rows = await webhooksRepo.deliveriesOf(db.q, e.id, b, 51);
      const page = rows.slice(0, 50);
      return {
        deliveries: page.map(toDelivery),
        nextBefore: rows.length > 50 ? String(page[page.length - 1]!.id) : null,
      };
    },

    /** A webhook.test event to one endpoint now, whatever events it asked for (also when switched off: it is a check). */
    async sendTest(accountId: number, id: string): Promise<WebhookDelivery> {
      const e = await mustOwn(accountId, id);
      const [d] = await enqueue(accountId, [e], {
        type: webhookTestEventType,
        key: `test:${e.id}:${randomBytes(8).toString('hex')}`,
        data: { endpointId: String(e.id), message: 'This is a test event from Numa.' },
      });
      return toDelivery(d!);
    },

    close() {
      stopListening();
      stopBalances();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
