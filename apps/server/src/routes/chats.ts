import type { FastifyInstance } from 'fastify';
import { constants, endpoints, fromMinor } from '@numa/contract';
import { ApiError } from '../lib/errors';
import { route } from '../lib/route';
import { accountsRepo } from '../repositories/accounts';
import { adsRepo } from '../repositories/ads';
import { messagesRepo } from '../repositories/messages';
import { numbersRepo } from '../repositories/numbers';
import { toChatListItem, toDialogMessage } from '../services/chat-views';
import { mediaIdFromUrl } from '../services/media';
import { SttFailedError, SttUnavailableError } from '../providers/stt/port';

/**
 * getChatListByDate looks this far before `since`: a message committed just after an earlier list was
 * read (its date taken a moment before) is still found. The client merges chats by key, so a chat
 * listed twice costs nothing.
 */
export const chatListGraceMs = 10_000;

/** The first millisecond of the UTC month `back` months before the current one. */
export function monthStart(back: number, now = new Date()): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1);
}

/** [start, end) of a `YYYY-MM` UTC month. */
export function monthRange(ym: string): [number, number] {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)];
}

const currentYm = (now = new Date()) => now.toISOString().slice(0, 7);

/** The chat calls of spec 000 §7: numbers, chat lists, conversation pages, deleting, speech-to-text, ads. */
export default async function chatRoutes(app: FastifyInstance) {
  const { db, media, stt } = app.deps;

  route(app, endpoints.getVirtualPhoneList, async ({ session }) => {
    const [numbers, settings, account] = await Promise.all([
      numbersRepo.ofAccount(db, session.accountId),
      numbersRepo.callSettings(db, session.accountId),
      accountsRepo.byId(db, session.accountId),
    ]);
    return {
      virtualPhones: numbers.map((n) => ({
        telCode: n.telCode,
        phone: n.number,
        paymentDate: n.paymentDate,
        monthRent: fromMinor(n.monthRent),
        planId: n.planId,
      })),
      // decided: calls are forwarded to the account's own phone, so forwarding needs one
      canForward: numbers.length > 0 && !!account?.phone,
      canVoicemail: numbers.length > 0,
      ...settings,
    };
  });

  route(app, endpoints.getChatList, async ({ session, input }) => {
    const serverTime = Date.now();
    const rows = await messagesRepo.chatList(db, session.accountId, monthStart(input.months));
    return { chatList: rows.map(toChatListItem), serverTime };
  });

  route(app, endpoints.getChatListByDate, async ({ session, input }) => {
    const serverTime = Date.now();
    const rows = await messagesRepo.chatList(
      db,
      session.accountId,
      Math.max(0, input.since - chatListGraceMs),
    );
    return { chatList: rows.map(toChatListItem), serverTime };
  });

  route(app, endpoints.getDialogList, async ({ session, input }) => {
    const [from, to] = monthRange(input.ym ?? currentYm());
    const rows = await messagesRepo.dialog(db, {
      accountId: session.accountId,
      own: input.ownFullNumber,
      other: input.otherFullNumber,
      from,
      to,
      ...(input.startTime !== undefined ? { before: input.startTime } : {}),
      ...(input.since !== undefined ? { after: input.since } : {}),
      limit: input.pageSize + 1,
    });
    const page = rows.slice(0, input.pageSize);
    const more = rows.length > input.pageSize;
    return {
      dialogList: page.map(toDialogMessage),
      nextStartTime: more ? page[page.length - 1]!.date : null,
    };
  });

  route(app, endpoints.delSms, async ({ session, input }) => {
    const deleted = await db.tx((q) =>
      input.sms
        ? messagesRepo.deleteRefs(q, session.accountId, input.sms)
        : messagesRepo.deleteChat(q, session.accountId, input.from!, input.to!),
    );
    return { deleted };
  });

  route(
    app,
    endpoints.speechToText,
    async ({ session, input }) => {
      const id = mediaIdFromUrl(input.media.replace(/^https?:\/\/[^/]+/, ''));
      if (!id) throw new ApiError(100002, null, 'media');
      const file = await media.read(id, session.accountId);
      if (!file) throw new ApiError(100002, null, 'media');
      if (input.smsId) {
        const message = await messagesRepo.bySmsId(db, session.accountId, input.smsId);
        if (!message || !message.media.split(',').includes(`/media/${id}`))
          throw new ApiError(100002, null, 'smsId');
      }
      try {
        const text = await stt.transcribe({ bytes: file.bytes, mime: file.mime, language: input.language });
        if (input.smsId)
          await messagesRepo.setStt(db, session.accountId, input.smsId, {
            stt: text,
            sttStatus: constants.sttStatus.done,
          });
        return { text };
      } catch (err) {
        if (err instanceof SttUnavailableError) throw new ApiError(600000);
        if (err instanceof SttFailedError) {
          if (input.smsId)
            await messagesRepo.setStt(db, session.accountId, input.smsId, {
              stt: null,
              sttStatus: constants.sttStatus.failed,
            });
          throw new ApiError(600002);
        }
        throw err;
      }
    },
    { rateLimit: { max: 30, timeWindow: 60_000 } },
  );

  route(app, endpoints.getAdConfig, async ({ ctx }) => {
    const row = await adsRepo.ofBrand(db, ctx.brand.id);
    return (
      row ?? {
        bannerAdsRedirectUrl: '',
        bannerAdsPictureUrl: '',
        bannerAdsRedirectUrlCn: '',
        bannerAdsPictureUrlCn: '',
      }
    );
  });
}
