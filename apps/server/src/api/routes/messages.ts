import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { constants, SendPayload } from '@numa/contract';
import {
  type ApiConversation,
  ApiMessage,
  ConversationPage,
  MessagePage,
  PageQuery,
  Problem,
  SendMessageBody,
} from '@numa/contract/apiV1';
import { ApiError } from '../../lib/errors';
import { e164, toApiMessage } from '../../services/chats/apiView';
import type { MessageRow } from '../../services/chats';
import { invalidInput } from '../problem';
import { apiRoute, type ApiAnswer } from '../route';

const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'printable ASCII, 1 to 255 characters');
const problems = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, { description: 'Problem details (RFC 9457)', schema: Problem }]));

/** A message's id from an Idempotency-Key: the same key of the same account is the same message. */
const idemSmsId = (accountId: number, key: string) =>
  `idem_${createHash('sha256').update(`${accountId}:${key}`).digest('base64url').slice(0, 40)}`;

const ConversationId = z
  .string()
  .regex(/^\d{5,16}-[A-Za-z0-9]{3,16}$/, 'Expected <own number>-<other party>');

function conversationOf(row: MessageRow): ApiConversation {
  return {
    id: `${row.ownFullNumber}-${row.otherFullNumber}`,
    own: e164(row.ownFullNumber, row.ownTelCode),
    other: e164(row.otherFullNumber, row.otherTelCode),
    lastMessage: toApiMessage(row),
  };
}

/** Whether a stored message is what a request asks to send (an Idempotency-Key reused with another request is refused). */
const sameRequest = (row: MessageRow, from: string, to: string, b: z.output<typeof SendMessageBody>) =>
  row.ownFullNumber === from &&
  row.otherFullNumber === to &&
  row.text === (b.text ?? '') &&
  row.type === (b.media ? 'mms' : 'sms');

/** /api/v1 messages: send, read one, conversations and their messages (issue 21). */
export default async function messageRoutes(app: FastifyInstance) {
  const { chats } = app.deps;

  apiRoute(
    app,
    {
      method: 'POST',
      path: '/api/v1/messages',
      tag: 'Messages',
      summary: 'Send an SMS or MMS from one of your numbers',
      description:
        'The same rules, prices and ledger as the web page: the message is stored and charged with its bill before the carrier sees it, and shows live in your web page. With an Idempotency-Key a retried send (also two at once) goes out once and answers the same message (Idempotent-Replayed: true).',
      scopes: ['messages:send'],
      body: SendMessageBody,
      headers: z.object({ 'idempotency-key': IdempotencyKey.optional() }),
      responses: {
        201: { description: 'Stored, charged and on its way', schema: ApiMessage },
        200: { description: 'The message of this Idempotency-Key, sent before', schema: ApiMessage },
        ...problems(400, 401, 403, 422, 429),
      },
    },
    async ({ principal, body, req }): Promise<ApiAnswer> => {
      const header = req.headers['idempotency-key'];
      let key: string | undefined;
      if (header !== undefined) {
        const k = IdempotencyKey.safeParse(Array.isArray(header) ? header[0] : header);
        if (!k.success) throw invalidInput(k.error, 'header.idempotency-key');
        key = k.data;
      }
      const smsId = key
        ? idemSmsId(principal.accountId, key)
        : `api_${randomBytes(16).toString('base64url')}`;
      const common = {
        fromNumber: body.from,
        toNumber: body.to,
        smsId,
        platform: principal.brand,
        languagecode: 'en' as const,
      };
      // the socket's own payload schema: the same validation as a send from the web page
      const parsed = SendPayload.safeParse(
        body.media
          ? {
              ...common,
              msgType: 'mms',
              fileBuffer: Buffer.from(body.media.data, 'base64'),
              fileType: body.media.contentType,
              fileName: body.media.fileName,
              ...(body.text ? { text: body.text } : {}),
            }
          : { ...common, msgType: 'sms', text: body.text ?? '' },
      );
      if (!parsed.success) {
        const tooLarge = parsed.error.issues.some((i) => /larger than/.test(i.message));
        if (tooLarge)
          throw new ApiError(100005, null, `the file is larger than ${constants.mmsMaxBytes} bytes`);
        throw invalidInput(parsed.error, 'body');
      }
      const result = await chats.send(
        { accountId: principal.accountId, brand: principal.brand },
        parsed.data,
      );
      if (result.kind === 'refused') throw new ApiError(result.retcode, null, result.detail);
      if (result.kind === 'repeat') {
        if (!sameRequest(result.row, body.from, body.to, body))
          throw Object.assign(
            new ApiError(100001, null, 'this Idempotency-Key was used with another request'),
            {
              statusCode: 422,
            },
          );
        if (result.row.status === constants.messageStatus.pending) await chats.resume(result.row);
        return { status: 200, body: toApiMessage(result.row), headers: { 'idempotent-replayed': 'true' } };
      }
      return {
        status: 201,
        body: toApiMessage(result.row),
        headers: { location: `/api/v1/messages/${encodeURIComponent(result.row.smsId)}` },
      };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/messages/{id}',
      tag: 'Messages',
      summary: 'One message and its status',
      scopes: ['messages:read', 'messages:send'],
      params: z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/) }),
      responses: { 200: { description: 'The message', schema: ApiMessage }, ...problems(401, 403, 404, 429) },
    },
    async ({ principal, params }) => {
      const row = await chats.message(principal.accountId, params.id);
      if (!row || row.deleted) throw new ApiError(100002, null, 'no such message');
      return { status: 200, body: toApiMessage(row) };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/conversations',
      tag: 'Messages',
      summary: 'Your conversations, the newest first, with their last message',
      scopes: ['messages:read'],
      query: PageQuery,
      cost: 3,
      responses: {
        200: { description: 'A page of conversations', schema: ConversationPage },
        ...problems(401, 403, 429),
      },
    },
    async ({ principal, query }) => {
      const page = await chats.conversationsPage(principal.accountId, query);
      return { status: 200, body: { data: page.items.map(conversationOf), nextCursor: page.nextCursor } };
    },
  );

  apiRoute(
    app,
    {
      method: 'GET',
      path: '/api/v1/conversations/{id}/messages',
      tag: 'Messages',
      summary: 'The messages of a conversation, the newest first',
      scopes: ['messages:read'],
      params: z.strictObject({ id: ConversationId }),
      query: PageQuery,
      cost: 2,
      responses: {
        200: { description: 'A page of messages', schema: MessagePage },
        ...problems(400, 401, 403, 429),
      },
    },
    async ({ principal, params, query }) => {
      const [own, other] = params.id.split('-') as [string, string];
      const page = await chats.messagesPage(principal.accountId, { own, other, ...query });
      return { status: 200, body: { data: page.items.map(toApiMessage), nextCursor: page.nextCursor } };
    },
  );
}
