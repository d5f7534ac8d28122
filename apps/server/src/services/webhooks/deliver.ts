import type { FastifyBaseLogger } from 'fastify';
import { brands } from '@numa/contract';
import { webhookTestEventType } from '@numa/contract/developer';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import { brandLang } from '../../lib/brand';
import type { Clock } from '../../lib/clock';
import { lazy } from '../../lib/lazy';
import type { MailPort } from '../../providers/mail/port';
import { accountsRepo } from '../../repositories/accounts';
import { webhooksRepo, type EndpointRow } from '../../repositories/webhooks';
import { post, resolveTarget, UrlRefused, type UrlPolicy } from './guard';
import { fill, serverTexts } from '../../lib/texts';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** One event to one endpoint: a try (retried with webhookBackoffMs for about a day). */
    'webhooks.deliver': { deliveryId: number };
    /** Hourly: the delivery log keeps a month. */
    'webhooks.purge': Record<string, never>;
  }
}

const MIN = 60_000;
const HOUR = 60 * MIN;
/**
 * Waits before the next try after try n failed (decided, after Standard Webhooks' and Svix's
 * schedules): 5 s, 1 min, 10 min, 1 h, 3 h, 6 h, 14 h — eight tries over about 24 hours.
 */
export const webhookBackoffMs = [5_000, MIN, 10 * MIN, HOUR, 3 * HOUR, 6 * HOUR, 14 * HOUR] as const;
export const webhookMaxAttempts = webhookBackoffMs.length + 1;
/** An endpoint failing for this long (no success since its first failure) is switched off, with an e-mail. */
export const webhookDisableAfterMs = 24 * HOUR;
/** One try's time limit. */
export const webhookTimeoutMs = 10_000;
/** How long deliveries are kept in the log. */
export const webhookLogKeepMs = 30 * 24 * HOUR;

/**
 * Delivery: the tries of one delivery (signed by the Standard Webhooks scheme, to an address the URL
 * policy allows at that try), an endpoint failing for a day switched off with a mail to its owner,
 * and the hourly purge of the log. `forget` drops an account's endpoints from the dispatch cache.
 */
export function defineWebhookDelivery(deps: {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  mail: MailPort;
  log: FastifyBaseLogger;
  policy: UrlPolicy;
  forget: (accountId: number) => void;
}) {
  const { db, jobs, clock, mail, log, policy } = deps;

  async function tellDisabled(e: EndpointRow) {
    const account = await accountsRepo.byId(db.q, e.accountId);
    if (!account?.email) return;
    const lang = brandLang(account.brand);
    const brandName = brands[account.brand].name[lang];
    await mail
      .send({
        to: account.email,
        subject: fill(serverTexts[lang].webhooks.offSubject, { brand: brandName }),
        text: fill(serverTexts[lang].webhooks.offBody, { url: e.url }),
      })
      .catch((err: unknown) => log.warn({ err, endpointId: e.id }, 'webhook disabled: mail failed'));
  }

  jobs.define(
    'webhooks.deliver',
    async ({ deliveryId }, ctx) => {
      const d = await webhooksRepo.delivery(db.q, deliveryId);
      if (!d || d.status !== 'pending') return;
      const e = d.endpoint;
      // a test event goes to a switched-off endpoint too: it is how its owner checks a fix
      if (!e.enabled && d.eventType !== webhookTestEventType)
        return webhooksRepo.giveUp(db.q, d.id, 'the endpoint is switched off');
      const sentAt = new Date();
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Numa-Webhooks/1.0',
        'webhook-id': d.msgId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new (lazy.standardWebhooks().Webhook)(e.secret).sign(d.msgId, sentAt, d.payload),
      };
      let outcome;
      try {
        outcome = await post(await resolveTarget(e.url, policy), d.payload, headers, webhookTimeoutMs);
      } catch (err) {
        outcome = {
          status: null,
          error: err instanceof UrlRefused ? `refused: ${err.message}` : String(err),
        };
      }
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      const now = new Date(clock.now());
      if (ok) {
        await webhooksRepo.recordTry(db.q, d.id, {
          attempts: ctx.attempt,
          status: 'succeeded',
          lastStatus: outcome.status,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: now,
        });
        await webhooksRepo.endpointSucceeded(db.q, e.id);
        return;
      }
      const error =
        outcome.status === null
          ? outcome.error
          : `HTTP ${outcome.status}${'body' in outcome && outcome.body ? `: ${outcome.body.slice(0, 200)}` : ''}`;
      const last = ctx.attempt >= webhookMaxAttempts;
      const off = await webhooksRepo.endpointFailed(db.q, e.id, now, webhookDisableAfterMs);
      await webhooksRepo.recordTry(db.q, d.id, {
        attempts: ctx.attempt,
        status: last || off ? 'failed' : 'pending',
        lastStatus: outcome.status,
        lastError: error.slice(0, 500),
        nextAttemptAt:
          last || off ? null : new Date(now.getTime() + (webhookBackoffMs[ctx.attempt - 1] ?? HOUR)),
      });
      if (off) {
        deps.forget(e.accountId);
        log.warn({ endpointId: e.id }, 'webhook endpoint switched off after a day of failures');
        await tellDisabled(off);
        return;
      }
      if (!last) throw new Error(`webhook delivery ${d.id}: ${error}`);
    },
    {
      maxAttempts: webhookMaxAttempts,
      backoffMs: (attempt) => webhookBackoffMs[attempt - 1] ?? HOUR,
      timeoutMs: webhookTimeoutMs + 15_000,
    },
  );
  jobs.define('webhooks.purge', async () => {
    const before = new Date(clock.now() - webhookLogKeepMs);
    while ((await webhooksRepo.purge(db.q, before, 1000)) === 1000);
  });
  jobs.schedule('webhooks.purge', { everyMs: HOUR, offsetMs: 17 * MIN }, {});
}
