import type { FastifyInstance } from 'fastify';
import { endpoints } from '@numa/contract';
import { route } from '../lib/route';

/** The chat calls of spec 000 §7: numbers, chat lists, conversation pages, deleting, speech-to-text, ads. */
export default async function chatRoutes(app: FastifyInstance) {
  const { chats } = app.deps;

  route(app, endpoints.getVirtualPhoneList, async ({ session }) => chats.virtualPhones(session.accountId));

  route(app, endpoints.getChatList, async ({ session, input }) =>
    chats.chatList(session.accountId, input.months),
  );

  route(app, endpoints.getChatListByDate, async ({ session, input }) =>
    chats.chatListSince(session.accountId, input.since),
  );

  route(app, endpoints.getDialogList, async ({ session, input }) =>
    chats.dialog(session.accountId, {
      own: input.ownFullNumber,
      other: input.otherFullNumber,
      ym: input.ym,
      startTime: input.startTime,
      since: input.since,
      pageSize: input.pageSize,
    }),
  );

  route(app, endpoints.delSms, async ({ session, input }) => ({
    deleted: await chats.deleteMessages(session.accountId, {
      sms: input.sms,
      from: input.from,
      to: input.to,
    }),
  }));

  route(
    app,
    endpoints.speechToText,
    async ({ session, input }) => ({
      text: await chats.speechToText(session.accountId, {
        media: input.media,
        smsId: input.smsId,
        language: input.language,
      }),
    }),
    { rateLimit: { max: 30, timeWindow: 60_000 } },
  );

  // the account's call limits apply (ACCOUNT_CALLS_*); the client asks as the user pauses typing
  route(app, endpoints.searchMessages, async ({ session, input }) =>
    chats.searchMessages(session.accountId, { q: input.q, cursor: input.cursor }),
  );

  route(app, endpoints.getAdConfig, async ({ ctx }) => chats.adConfig(ctx.brand.id));
}
