import { z } from 'zod';
import { Empty, EntityId } from './common';
import { defineEndpoint } from './endpoint';

/*
 * Web Push (issue 23): the Account area's "Notifications on this device" setting and its device
 * list, the page's "I am looking at this conversation" socket event, and what a push carries to
 * the service worker.
 *
 * Decided:
 * - one subscription per browser (its push service endpoint); subscribing the same endpoint again
 *   (another account signed in there) moves it to that account;
 * - at most pushLimits.devices subscriptions per account (400000 past them);
 * - a subscription's language is the page's language when it subscribed (the account keeps none);
 *   the page subscribes again when its language changes, which updates it;
 * - previews (the message text in the notification) are per device, on by default;
 * - a conversation is `<own full number>-<other full number>`, the chats area's key;
 * - the low-balance line is pushLimits.lowBalance in the brand's unit (once per crossing).
 */

export const pushLimits = { devices: 20, lowBalance: 1 } as const;

/** A push service endpoint: https, at most 2,000 characters (browsers' are far shorter). */
export const PushEndpoint = z
  .string()
  .trim()
  .max(2000)
  .regex(/^https?:\/\/[^\s]+$/, 'Expected the push service URL');

/** base64url key material of a subscription (RFC 8291): p256dh 65 bytes, auth 16 bytes. */
const b64url = (min: number, max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Expected base64url')
    .min(min)
    .max(max);

export const PushDevice = z.object({
  id: EntityId,
  /** what the device is called: browser and system, from its user agent */
  device: z.string(),
  previews: z.boolean(),
  lang: z.enum(['en', 'zh']),
  createdAt: z.number().int(),
  /** null: nothing sent to it yet */
  lastSentAt: z.number().int().nullable(),
  /** the device that asked (its endpoint was given) */
  current: z.boolean(),
});
export type PushDevice = z.infer<typeof PushDevice>;

export const getPushSettings = defineEndpoint({
  name: 'getPushSettings',
  method: 'POST',
  path: '/web/getPushSettings',
  access: 'session',
  summary:
    "The server's VAPID public key and the account's push devices; `endpoint` (this browser's subscription, if any) marks the current one.",
  input: z.strictObject({ endpoint: PushEndpoint.nullable().default(null) }),
  output: z.object({ publicKey: z.string(), devices: z.array(PushDevice) }),
});

export const subscribePush = defineEndpoint({
  name: 'subscribePush',
  method: 'POST',
  path: '/web/subscribePush',
  access: 'session',
  summary: 'Turn notifications on for this browser: its push subscription (endpoint and keys).',
  input: z.strictObject({
    endpoint: PushEndpoint,
    keys: z.strictObject({ p256dh: b64url(80, 100), auth: b64url(16, 32) }),
    previews: z.boolean().default(true),
  }),
  output: z.object({ device: PushDevice }),
});

export const updatePushDevice = defineEndpoint({
  name: 'updatePushDevice',
  method: 'POST',
  path: '/web/updatePushDevice',
  access: 'session',
  summary: 'Show or hide message previews on one of the account’s devices.',
  input: z.strictObject({ id: EntityId, previews: z.boolean() }),
  output: z.object({ device: PushDevice }),
});

export const unsubscribePush = defineEndpoint({
  name: 'unsubscribePush',
  method: 'POST',
  path: '/web/unsubscribePush',
  access: 'session',
  summary: 'Turn notifications off on one of the account’s devices (its subscription is deleted).',
  input: z.strictObject({ id: EntityId }),
  output: Empty,
});

/** The push calls of the Account area. */
export const pushEndpoints = { getPushSettings, subscribePush, updatePushDevice, unsubscribePush } as const;

/**
 * The `viewing` socket event (ours): the page says which conversation it shows while it is visible
 * (`chat` null: none, or the page is hidden; `verification`: the codes tab of the code brand). A
 * push for what any socket of the account shows is not sent. Rate-limited like every socket event.
 */
export const ViewingEvent = z.strictObject({
  chat: z
    .string()
    .regex(/^(\d{3,16}-[A-Za-z0-9]{1,32}|verification)$/)
    .nullable(),
});
export type ViewingEvent = z.infer<typeof ViewingEvent>;
export const viewingEvent = 'viewing' as const;

export const pushKinds = ['message', 'voicemail', 'code', 'renewalFailed', 'lowBalance'] as const;

/** What a push carries (JSON, encrypted to the subscription): the service worker shows it as it is. */
export const PushPayload = z.object({
  kind: z.enum(pushKinds),
  title: z.string(),
  body: z.string(),
  lang: z.enum(['en', 'zh']),
  /** the app path the notification opens (`/chats?chat=<key>`, `/verification`, `/account/…`) */
  url: z.string().startsWith('/'),
  /** one notification per conversation or event: a newer one replaces it */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof PushPayload>;
