import type { FastifyBaseLogger } from 'fastify';
import { brands, fromMinor, toMinor, type Lang, type Minor } from '@numa/contract';
import { parsePhone } from '@numa/contract/phone';
import { pushLimits, type PushPayload } from '@numa/contract/push';
import type { Database } from '../../db';
import type { Jobs } from '../../jobs';
import type { Clock } from '../../lib/clock';
import { fill, serverTexts } from '../../lib/texts';
import { PermanentJobError } from '../../jobs/types';
import { post, resolveTarget, UrlRefused, type UrlPolicy } from '../webhooks/guard';
import type { PushDevices } from './devices';
import { idemKey } from '../../lib/idem';
import { lazy } from '../../lib/lazy';
import type { AccountEvent, RealtimeHub } from '../../realtime/hub';
import { accountsRepo } from '../../repositories/accounts';
import { pushRepo, type PushSubscriptionRow } from '../../repositories/push';

declare module '../../jobs/types' {
  interface JobPayloads {
    /** One notification to one device (retried on the jobs' backoff; 404/410 deletes the device). */
    'push.send': { subscriptionId: number; event: PushEvent };
  }
}

/** What a notification is about; its texts are written when it is sent, in the device's language. */
export type PushEvent =
  | {
      kind: 'message';
      messageId: number;
      own: string;
      other: string;
      type: 'sms' | 'mms' | 'voicemail';
      text: string;
    }
  | { kind: 'code'; smsId: string; app: string; number: string; code: string; text: string }
  | { kind: 'renewalFailed'; number: string; reclaimOn: string }
  | { kind: 'lowBalance'; balance: number; at: number };

/** Tries in all for one notification (2 s, 4 s, 8 s, 16 s between them). */
export const pushMaxAttempts = 5;
/** A push service that does not answer within this is a failed try. */
const pushTimeoutMs = 10_000;
/** How long a notification waits on the push service while the device is off (seconds). */
const pushTtlSeconds = 24 * 60 * 60;

/** A number as people read it (+1 415-555-0100), or a sender id as it is. */
const shown = (full: string) =>
  /^\d+$/.test(full) ? (parsePhone(full)?.formatInternational() ?? `+${full}`) : full;

const preview = (s: string) => (s.length > 180 ? `${s.slice(0, 179)}…` : s);

export interface PushServiceDeps {
  db: Database;
  jobs: Jobs;
  clock: Clock;
  realtime: RealtimeHub;
  log: FastifyBaseLogger;
  vapid: { publicKey?: string | undefined; privateKey?: string | undefined; subject: string };
  /** Where push services may be (the webhooks' policy: production only https to public addresses). */
  policy: UrlPolicy;
}

/** What became of one notification to one device (tests and logs hear it). */
export type PushOutcome = 'sent' | 'suppressed' | 'gone' | 'refused';

/**
 * Web Push (issue 23): the account's devices (push subscriptions), and a notification to each for a
 * new incoming message (sender from the contacts, the text unless the device hides previews), a
 * voicemail, a verification code (the code in the text), a failed renewal and a low balance. The
 * hub's events (heard after their commit) become one `push.send` job per device; the job writes the
 * texts in the device's language, skips a conversation some page of the account shows, sends by the
 * Web Push protocol with the VAPID keys (`web-push`), and deletes a device its push service answers
 * 404 or 410 for. Other failures are tried again by the jobs queue.
 */
export function createPushSending(deps: PushServiceDeps, devices: PushDevices) {
  const { db, jobs, clock, realtime, log } = deps;
  const outcomes = new Set<(o: { subscriptionId: number; event: PushEvent; outcome: PushOutcome }) => void>();
  const tell = (subscriptionId: number, event: PushEvent, outcome: PushOutcome) => {
    for (const l of outcomes) l({ subscriptionId, event, outcome });
  };

  /** One job per device of the account (once per event and device). */
  async function enqueue(accountId: number, event: PushEvent, key: string) {
    if (!(await devices.any(accountId))) return;
    const subs = await pushRepo.ofAccount(db.q, accountId);
    if (!subs.length) return;
    await jobs.enqueueMany(
      db.q,
      'push.send',
      subs.map((s) => ({ payload: { subscriptionId: s.id, event }, dedupeKey: idemKey('push', s.id, key) })),
    );
  }

  function eventOf(ev: AccountEvent): { accountId: number; event: PushEvent; key: string } | null {
    if (ev.kind === 'message') {
      const row = ev.row;
      if (row.direction !== 'in' || row.deleted) return null;
      return {
        accountId: row.accountId,
        key: `m:${row.id}`,
        event: {
          kind: 'message',
          messageId: row.id,
          own: row.ownFullNumber,
          other: row.otherFullNumber,
          type: row.type === 'voicemail' ? 'voicemail' : row.type === 'mms' ? 'mms' : 'sms',
          text: row.text,
        },
      };
    }
    if (ev.kind === 'codeSms') {
      const { app, number, sms } = ev.event;
      return {
        accountId: ev.accountId,
        key: `c:${sms.smsId}`,
        event: { kind: 'code', smsId: sms.smsId, app, number, code: sms.code, text: sms.text },
      };
    }
    return {
      accountId: ev.accountId,
      key: `r:${ev.event.number}:${ev.event.reclaimOn}`,
      event: { kind: 'renewalFailed', number: ev.event.number, reclaimOn: ev.event.reclaimOn },
    };
  }

  const stopListening = realtime.listen((ev) => {
    const made = eventOf(ev);
    if (!made) return;
    enqueue(made.accountId, made.event, made.key).catch((err: unknown) =>
      log.error({ err, kind: made.event.kind }, 'push not queued'),
    );
  });

  /** A committed balance below the line: once per crossing (push_balance_low). */
  async function balanceChanged(accountId: number, balance: Minor | undefined) {
    if (!(await devices.any(accountId))) return;
    const account = await accountsRepo.byId(db.q, accountId);
    if (!account) return;
    const now = balance ?? account.balance;
    const below = now < toMinor(pushLimits.lowBalance);
    if (!(await pushRepo.balanceCrossed(db.q, accountId, below))) return;
    await enqueue(
      accountId,
      { kind: 'lowBalance', balance: fromMinor(now), at: clock.now() },
      `b:${clock.now()}`,
    );
  }
  const stopBalances = db.onBalancesCommitted((ids, _from, known) => {
    for (const id of ids)
      balanceChanged(id, known?.get(id)).catch((err: unknown) =>
        log.error({ err, accountId: id }, 'low-balance push check failed'),
      );
  });

  /** The notification for one device, in its language; null when it is not to be shown. */
  async function compose(sub: PushSubscriptionRow, e: PushEvent): Promise<PushPayload | null> {
    const lang: Lang = sub.lang;
    const t = serverTexts[lang].push;
    if (e.kind === 'message') {
      const chat = `${e.own}-${e.other}`;
      if (await realtime.isViewing(sub.accountId, chat)) return null;
      const name = (await pushRepo.contactName(db.q, sub.accountId, e.other)) ?? shown(e.other);
      const url = `/chats?chat=${encodeURIComponent(chat)}`;
      if (e.type === 'voicemail')
        return {
          kind: 'voicemail',
          title: fill(t.voicemailFrom, { name }),
          body: t.voicemailBody,
          lang,
          url,
          tag: chat,
        };
      const body = !sub.previews
        ? t.newMessage
        : e.text.trim()
          ? preview(e.text.trim())
          : e.type === 'mms'
            ? t.picture
            : t.newMessage;
      return { kind: 'message', title: name, body, lang, url, tag: chat };
    }
    if (e.kind === 'code') {
      if (await realtime.isViewing(sub.accountId, 'verification')) return null;
      const app = await pushRepo.appName(db.q, e.app);
      const appName = app ? app[lang] : e.app;
      const code = e.code ? fill(t.codeBody, { code: e.code }) : t.codeReceived;
      const body = sub.previews && e.text.trim() ? `${code}\n${preview(e.text.trim())}` : code;
      return {
        kind: 'code',
        title: fill(t.codeTitle, { app: appName }),
        body,
        lang,
        url: '/verification',
        tag: `code:${e.smsId}`,
      };
    }
    if (e.kind === 'renewalFailed')
      return {
        kind: 'renewalFailed',
        title: fill(t.renewalTitle, { number: shown(e.number) }),
        body: fill(t.renewalBody, { date: e.reclaimOn }),
        lang,
        url: '/numbers',
        tag: `renewal:${e.number}`,
      };
    const account = await accountsRepo.byId(db.q, sub.accountId);
    const brand = brands[account?.brand ?? 'numa'];
    const amount = `${brand.currency.symbol ?? ''}${e.balance.toFixed(2)}${brand.currency.symbol ? '' : ` ${brand.currency.label[lang]}`}`;
    return {
      kind: 'lowBalance',
      title: t.lowTitle,
      body: fill(t.lowBody, { amount }),
      lang,
      url: '/account/credit',
      tag: 'balance',
    };
  }

  jobs.define(
    'push.send',
    async ({ subscriptionId, event }) => {
      const sub = await pushRepo.byId(db.q, subscriptionId);
      if (!sub) return;
      const payload = await compose(sub, event);
      if (!payload) return tell(sub.id, event, 'suppressed');
      const vapid = await devices.vapidKeys();
      // the request as Web Push has it (RFC 8291 aes128gcm, RFC 8292 VAPID), made by `web-push`;
      // sent by the webhooks' guarded POST: the endpoint is the browser's word, so it is checked like
      // a webhook URL at every try and the connection goes to the address checked
      const request = lazy
        .webPush()
        .generateRequestDetails(
          { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: { subject: deps.vapid.subject, ...vapid },
            TTL: pushTtlSeconds,
            urgency: event.kind === 'code' || event.kind === 'message' ? 'high' : 'normal',
          },
        );
      let target;
      try {
        target = await resolveTarget(sub.endpoint, deps.policy);
      } catch (err) {
        if (!(err instanceof UrlRefused)) throw err;
        tell(sub.id, event, 'refused');
        throw new PermanentJobError(`push endpoint refused: ${err.message}`);
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      const outcome = await post(target, request.body, headers, pushTimeoutMs);
      if (outcome.status === 404 || outcome.status === 410) {
        await pushRepo.removeGone(db.q, sub.id, sub.endpoint);
        devices.forget(sub.accountId);
        log.info({ subscriptionId: sub.id, status: outcome.status }, 'push subscription gone: deleted');
        return tell(sub.id, event, 'gone');
      }
      if (outcome.status === null || outcome.status < 200 || outcome.status >= 300)
        throw new Error(
          `push to subscription ${sub.id} failed: ${outcome.status === null ? outcome.error : `HTTP ${outcome.status}`}`,
        );
      await pushRepo.sent(db.q, sub.id, new Date(clock.now()));
      tell(sub.id, event, 'sent');
    },
    { maxAttempts: pushMaxAttempts, timeoutMs: pushTimeoutMs + 5_000 },
  );

  return {
    /** Hears what became of each notification (returns the way to stop). */
    onOutcome(l: (o: { subscriptionId: number; event: PushEvent; outcome: PushOutcome }) => void) {
      outcomes.add(l);
      return () => outcomes.delete(l);
    },

    close() {
      stopListening();
      stopBalances();
    },
  };
}

export type PushSending = ReturnType<typeof createPushSending>;
