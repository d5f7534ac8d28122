import { z } from 'zod';
import { constants } from './constants';
import { ApiScope, WebhookEventType, WebhookUrl } from './developer';

/*
 * The REST API for programs (issue 21): `/api/v1`, JSON, `Authorization: Bearer <API key>`. The same
 * services, prices and ledger as the web page; the OpenAPI 3.1 document served at
 * /api/v1/openapi.json is generated from these schemas (apps/server/src/api/openapi.ts), so the two
 * cannot drift. Each schema's `id` names its component.
 *
 * Decided:
 * - numbers are E.164 with the '+' in answers; inputs take them with or without it (spaces, dashes
 *   and brackets are dropped);
 * - times are ISO 8601 (UTC) strings; money is a number in the brand's unit (Coins, dollars, cloud
 *   coins), exactly as the balance shows it;
 * - a message's `id` is its smsId: `Idempotency-Key: <k>` on a send makes the id `idem_<hash of k>`,
 *   so a retried send (also two at once) stores, charges and sends one message and answers it again;
 *   the same key with another request is 422;
 * - lists are pages of `limit` (1 to 100, default 50), newest first, with `nextCursor` (null at the
 *   end) passed back as `cursor`;
 * - failures are RFC 9457 problem details (`application/problem+json`) with our retcode in `code`.
 */

/** A number as a program gives it: digits with an optional '+', spaces, dashes and brackets dropped. */
export const E164Input = z
  .string()
  .max(32)
  .transform((s) => s.replace(/[\s()+-]/g, ''))
  .pipe(z.string().regex(/^\d{5,16}$/, 'Expected a phone number with its country code, e.g. +14155550100'))
  .meta({ description: 'A phone number with its country code, e.g. +14155550100', example: '+14155550100' });

/** A number in answers: E.164 with '+', or a short code / sender id as the carrier gave it. */
export const E164 = z.string().meta({ example: '+14155550100' });
const Time = z.string().meta({ description: 'ISO 8601, UTC', example: '2026-01-31T12:00:00.000Z' });
const MoneyAmount = z.number().meta({ description: "An amount in the brand's unit", example: 1.25 });

export const MessageStatusName = z.enum(['pending', 'sent', 'delivered', 'failed']).meta({
  id: 'MessageStatus',
  description:
    'pending: stored and charged, waiting for the carrier; sent: the carrier (or the platform) took it; delivered: the carrier reported it delivered (a message between two Numa numbers is delivered at once); failed: not sent, its charge refunded.',
});
export type MessageStatusName = z.infer<typeof MessageStatusName>;

export const ApiMessage = z
  .object({
    id: z.string().meta({ description: 'The message id (its smsId).' }),
    conversationId: z.string(),
    direction: z.enum(['in', 'out']),
    type: z.enum(constants.messageTypes),
    from: E164,
    to: E164,
    text: z.string(),
    media: z.array(z.string()).meta({ description: 'Paths of its files on this server (/media/…).' }),
    status: MessageStatusName,
    error: z
      .object({ code: z.number().int(), message: z.string() })
      .nullable()
      .meta({ description: 'Why a failed message failed.' }),
    segments: z.number().int(),
    charge: MoneyAmount,
    createdAt: Time,
    deliveredAt: Time.nullable(),
  })
  .meta({ id: 'Message' });
export type ApiMessage = z.infer<typeof ApiMessage>;

const Base64 = z
  .string()
  .max(Math.ceil((constants.mmsMaxBytes * 4) / 3) + 8)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'Expected base64');

export const SendMessageBody = z
  .strictObject({
    from: E164Input.meta({ description: 'One of your numbers.' }),
    to: E164Input,
    text: z.string().trim().max(constants.smsTextMax).optional(),
    media: z
      .strictObject({
        contentType: z.enum(constants.mmsMimeTypes),
        fileName: z.string().trim().min(1).max(255),
        data: Base64.meta({ description: `The file, base64 (at most ${constants.mmsMaxBytes} bytes).` }),
      })
      .optional()
      .meta({ description: 'An MMS picture; the message is then an MMS.' }),
  })
  .refine((b) => !!b.text || !!b.media, { message: 'text or media is required', path: ['text'] })
  .meta({ id: 'SendMessage' });
export type SendMessageBody = z.infer<typeof SendMessageBody>;

export const ApiConversation = z
  .object({
    id: z.string().meta({ description: '<your number>-<the other party>, digits' }),
    own: E164,
    other: E164,
    lastMessage: ApiMessage,
  })
  .meta({ id: 'Conversation' });
export type ApiConversation = z.infer<typeof ApiConversation>;

export const PageQuery = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const page = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() }).meta({ id });

export const ConversationPage = page(ApiConversation, 'ConversationPage');
export const MessagePage = page(ApiMessage, 'MessagePage');

export const Balance = z
  .object({
    balance: MoneyAmount,
    unit: z.string().meta({ description: "The brand's unit (Coins, USD, 云币 …)", example: 'Coins' }),
    decimals: z.number().int(),
  })
  .meta({ id: 'Balance' });

export const ApiNumber = z
  .object({
    number: E164,
    country: z.string(),
    tollFree: z.boolean(),
    monthRent: MoneyAmount,
    nextPaymentDate: z.string().meta({ description: 'ISO date of the next rent', example: '2026-02-28' }),
    planId: z.number().int(),
  })
  .meta({ id: 'Number' });

export const NumberList = z.object({ data: z.array(ApiNumber) }).meta({ id: 'NumberList' });

export const AvailableQuery = z.strictObject({
  country: z.enum(constants.numberCountries),
  type: z.enum(constants.numberKinds).default('local'),
  areaCode: z
    .string()
    .regex(/^\d{1,6}$/)
    .optional(),
});

export const AvailableNumbers = z.object({ numbers: z.array(E164) }).meta({ id: 'AvailableNumbers' });

export const ApiPlan = z
  .object({
    id: z.number().int(),
    name: z.string(),
    price: MoneyAmount,
    period: z.enum(constants.planRentPeriods),
    monthRent: MoneyAmount,
    activationFee: MoneyAmount,
  })
  .meta({ id: 'Plan' });
export const PlanList = z.object({ data: z.array(ApiPlan) }).meta({ id: 'PlanList' });
export const PlansQuery = AvailableQuery.pick({ country: true, type: true });

export const RentNumberBody = z
  .strictObject({
    number: E164Input,
    planId: z.number().int().positive(),
    country: z.enum(constants.numberCountries),
    type: z.enum(constants.numberKinds).default('local'),
  })
  .meta({ id: 'RentNumber' });

export const Rental = z
  .object({ number: E164, historyId: z.string(), message: z.string() })
  .meta({ id: 'Rental' });

export const CodeLockBody = z
  .strictObject({
    app: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
    country: z.string().regex(/^[A-Z]{2}$/),
    number: E164Input.optional().meta({
      description: 'A number of yours for this app; a fresh one when left out.',
    }),
  })
  .meta({ id: 'CodeLockRequest' });

export const CodeSms = z
  .object({ id: z.string(), text: z.string(), code: z.string(), charge: MoneyAmount, receivedAt: Time })
  .meta({ id: 'CodeSms' });

export const CodeLock = z
  .object({
    number: E164,
    app: z.string(),
    country: z.string(),
    fee: MoneyAmount.meta({ description: 'What one received code costs (nothing is charged without one).' }),
    expiresAt: Time,
    active: z.boolean(),
    codes: z.array(CodeSms),
  })
  .meta({ id: 'CodeLock' });
export type CodeLock = z.infer<typeof CodeLock>;

export const CodeLockQuery = z.strictObject({ app: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) });

export const ApiWebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(WebhookEventType),
    enabled: z.boolean(),
    disabledReason: z.enum(['failing', 'owner']).nullable(),
    balanceThreshold: z.number().nullable(),
    secret: z.string().meta({ description: 'Standard Webhooks signing secret (whsec_…)' }),
    createdAt: Time,
  })
  .meta({ id: 'WebhookEndpoint' });
export const WebhookEndpointList = z
  .object({ data: z.array(ApiWebhookEndpoint) })
  .meta({ id: 'WebhookEndpointList' });
export const WebhookEndpointBody = z
  .strictObject({
    url: WebhookUrl,
    description: z.string().trim().max(200).default(''),
    events: z.array(WebhookEventType).min(1),
    balanceThreshold: z.number().finite().min(0).max(1_000_000).nullable().default(null),
  })
  .meta({ id: 'WebhookEndpointRequest' });

export const KeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(ApiScope),
    brand: z.string(),
  })
  .meta({ id: 'ApiKey' });

/** RFC 9457 problem details, with our retcode in `code`. */
export const Problem = z
  .object({
    type: z.string().meta({ example: 'urn:numa:retcode:400001' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: z.number().int().meta({ description: 'Numa retcode' }),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Which fields failed validation' }),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

/** Standard Webhooks payload of every event: `type`, `timestamp` and `data`. */
export const WebhookEvent = z
  .object({
    type: z.string().meta({ example: 'message.received' }),
    timestamp: Time,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookEvent' });
