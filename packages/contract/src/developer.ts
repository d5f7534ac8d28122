import { z } from 'zod';
import { Empty, EntityId, Money } from './common';
import { defineEndpoint } from './endpoint';

/*
 * The developer platform (issue 21), the web page's side: the account's API keys and webhook
 * endpoints, managed from the account menu's "Developer" panel. Programs use the keys on /api/v1
 * (apiV1.ts) and /stubs/handler_api.php, never on /web or the socket.
 *
 * Decided:
 * - a key is `numa_sk_` and 43 characters of base64url (256 random bits); it is shown once, when made;
 *   lists show its first 12 characters (`prefix`);
 * - a key belongs to one account on one brand and works on that brand's hosts only;
 * - at most developerLimits.keys live keys and developerLimits.endpoints webhook endpoints per account
 *   (400000 past them);
 * - times are epoch milliseconds here (the /web convention); /api/v1 speaks ISO 8601.
 */

/** What a key may do. `balance` and the key's own facts need none. */
export const apiScopes = ['messages:read', 'messages:send', 'numbers', 'codes', 'webhooks'] as const;
export const ApiScope = z.enum(apiScopes);
export type ApiScope = z.infer<typeof ApiScope>;

/** The events a webhook endpoint may ask for (Standard Webhooks `type`). */
export const webhookEventTypes = [
  'message.received',
  'message.status',
  'code.received',
  'balance.low',
  'number.renewal_failed',
] as const;
export const WebhookEventType = z.enum(webhookEventTypes);
export type WebhookEventType = z.infer<typeof WebhookEventType>;
/** The type of the event the "send test event" action sends (to any endpoint, whatever it asked for). */
export const webhookTestEventType = 'webhook.test';

/** At most this many live keys / webhook endpoints per account. */
export const developerLimits = { keys: 20, endpoints: 10 } as const;

/** A key's name: what its owner calls it. */
export const ApiKeyName = z.string().trim().min(1).max(60);

/** A key as lists show it (never the key itself). */
export const ApiKeyInfo = z.object({
  id: EntityId,
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(ApiScope),
  createdAt: z.number().int(),
  /** null: never used */
  lastUsedAt: z.number().int().nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

export const getApiKeys = defineEndpoint({
  name: 'getApiKeys',
  method: 'GET',
  path: '/web/getApiKeys',
  access: 'session',
  summary: "The account's live API keys (name, first characters, scopes, last use).",
  input: Empty,
  output: z.object({ keys: z.array(ApiKeyInfo) }),
});

export const createApiKey = defineEndpoint({
  name: 'createApiKey',
  method: 'POST',
  path: '/web/createApiKey',
  access: 'session',
  summary: 'Make an API key with a name and scopes; the key is in the answer once and never again.',
  input: z.strictObject({ name: ApiKeyName, scopes: z.array(ApiScope).min(1).max(apiScopes.length) }),
  output: z.object({ key: ApiKeyInfo, secret: z.string() }),
});

export const revokeApiKey = defineEndpoint({
  name: 'revokeApiKey',
  method: 'POST',
  path: '/web/revokeApiKey',
  access: 'session',
  summary: 'Revoke one of the account’s API keys: it is refused at once on every server.',
  input: z.strictObject({ id: EntityId }),
  output: Empty,
});

/**
 * A webhook URL: http(s), at most 2,000 characters, no credentials in it. Production also asks for
 * https and a public address (checked by the server when it is saved and again at every delivery).
 */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(
    /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?([/?#][^\s]*)?$/,
    'Expected an http(s) URL without credentials',
  );

export const WebhookEndpoint = z.object({
  id: EntityId,
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventType),
  enabled: z.boolean(),
  /** why it is off: 'failing' (a day of failed deliveries) or 'owner' */
  disabledReason: z.enum(['failing', 'owner']).nullable(),
  /** balance.low fires when the balance falls below this (brand's unit); null without balance.low */
  balanceThreshold: Money.nullable(),
  createdAt: z.number().int(),
  /** Standard Webhooks signing secret (whsec_…), shown to the endpoint's owner. */
  secret: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

const EndpointFields = {
  url: WebhookUrl,
  description: z.string().trim().max(200).default(''),
  events: z.array(WebhookEventType).min(1).max(webhookEventTypes.length),
  balanceThreshold: z.number().finite().min(0).max(1_000_000).nullable().default(null),
};

export const getWebhookEndpoints = defineEndpoint({
  name: 'getWebhookEndpoints',
  method: 'GET',
  path: '/web/getWebhookEndpoints',
  access: 'session',
  summary: "The account's webhook endpoints.",
  input: Empty,
  output: z.object({ endpoints: z.array(WebhookEndpoint) }),
});

export const createWebhookEndpoint = defineEndpoint({
  name: 'createWebhookEndpoint',
  method: 'POST',
  path: '/web/createWebhookEndpoint',
  access: 'session',
  summary: 'Add a webhook endpoint with the events it wants (a URL the server may not call: 100001).',
  input: z.strictObject(EndpointFields),
  output: z.object({ endpoint: WebhookEndpoint }),
});

export const updateWebhookEndpoint = defineEndpoint({
  name: 'updateWebhookEndpoint',
  method: 'POST',
  path: '/web/updateWebhookEndpoint',
  access: 'session',
  summary: 'Change an endpoint (URL, events, threshold) or switch it on or off.',
  input: z.strictObject({
    id: EntityId,
    url: WebhookUrl.optional(),
    description: z.string().trim().max(200).optional(),
    events: EndpointFields.events.optional(),
    balanceThreshold: z.number().finite().min(0).max(1_000_000).nullable().optional(),
    enabled: z.boolean().optional(),
  }),
  output: z.object({ endpoint: WebhookEndpoint }),
});

export const deleteWebhookEndpoint = defineEndpoint({
  name: 'deleteWebhookEndpoint',
  method: 'POST',
  path: '/web/deleteWebhookEndpoint',
  access: 'session',
  summary: 'Remove a webhook endpoint and its delivery log.',
  input: z.strictObject({ id: EntityId }),
  output: Empty,
});

/** One try log line of an event for an endpoint. */
export const WebhookDelivery = z.object({
  id: EntityId,
  /** the event's webhook-id */
  msgId: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  /** HTTP status of the last try (null: no answer) */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.number().int(),
  nextAttemptAt: z.number().int().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const getWebhookDeliveries = defineEndpoint({
  name: 'getWebhookDeliveries',
  method: 'GET',
  path: '/web/getWebhookDeliveries',
  access: 'session',
  summary: 'The newest deliveries of an endpoint (50 a page; `before` an id for older ones).',
  input: z.strictObject({ id: EntityId, before: EntityId.optional() }),
  output: z.object({ deliveries: z.array(WebhookDelivery), nextBefore: EntityId.nullable() }),
});

export const sendTestWebhook = defineEndpoint({
  name: 'sendTestWebhook',
  method: 'POST',
  path: '/web/sendTestWebhook',
  access: 'session',
  summary: 'Send a webhook.test event to an endpoint now (it shows in the delivery log).',
  input: z.strictObject({ id: EntityId }),
  output: z.object({ delivery: WebhookDelivery }),
});

/** The Developer panel's calls. */
export const developerEndpoints = {
  getApiKeys,
  createApiKey,
  revokeApiKey,
  getWebhookEndpoints,
  createWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDeliveries,
  sendTestWebhook,
} as const;
