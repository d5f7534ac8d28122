import { z } from 'zod';
import {
  Direction,
  Empty,
  EpochMs,
  FullNumber,
  IsoDate,
  MediaUrl,
  Money,
  TelCode,
  YearMonth,
  jsonString,
  qEpochMs,
  qIntIn,
  qPageSize,
} from '../common';
import { constants } from '../constants';
import { defineEndpoint } from '../endpoint';

/** A message's kind (spec 000 §3). */
export const MessageType = z.enum(constants.messageTypes);
export type MessageType = z.infer<typeof MessageType>;

/** 0 sent, 1 pending, 2 failed (spec 000 §3). */
export const MessageStatus = z.literal(Object.values(constants.messageStatus));
export type MessageStatus = z.infer<typeof MessageStatus>;

/** A client-made message id (spec: smsId, at most 64 characters). */
export const SmsId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'Invalid smsId');

/**
 * The other party of a chat. Decided: a full number (digits) for people; inbound-only senders
 * (verification-code services, short codes) may also be a short code or an alphanumeric sender id,
 * so the party is 3 to 16 letters or digits. Sending always needs a `FullNumber`.
 */
export const PartyNumber = z.string().regex(/^[A-Za-z0-9]{3,16}$/, 'Invalid phone number or sender');

/** A comma-separated list of media URLs ('' when the message has none). */
export const MediaList = z.string().max(8192);

/** Speech-to-text state of a voice message: 0 none, 1 working, 2 done, 3 failed (decided). */
export const SttStatus = z.literal(Object.values(constants.sttStatus));

/**
 * A chat-list item (spec 000 §3): the last message between one own number and one other party.
 * Its key is `${ownFullNumber}-${otherFullNumber}`. `otherTelCode` is '' for senders without a
 * country code. `text` and `media` are those of the last message.
 */
export const ChatListItem = z.object({
  ownFullNumber: FullNumber,
  ownTelCode: TelCode,
  ownNumber: z.string(),
  otherFullNumber: PartyNumber,
  otherTelCode: z.string(),
  otherNumber: z.string(),
  date: EpochMs,
  text: z.string(),
  media: MediaList,
  type: MessageType,
  smsId: SmsId,
  direction: Direction,
});
export type ChatListItem = z.infer<typeof ChatListItem>;
export const chatKey = (c: Pick<ChatListItem, 'ownFullNumber' | 'otherFullNumber'>) =>
  `${c.ownFullNumber}-${c.otherFullNumber}`;

/**
 * A message of a conversation (spec 000 §3). `highlightTarget` and `highlightText` are lists joined by
 * `constants.highlightSeparator` ('' when none): phrase i of the text becomes a link to target i
 * (`constants.highlightTargets`). The speech-to-text fields are present on voice messages only:
 * `getStt` says whether a transcript may be asked for, `stt` is the transcript once there is one.
 */
export const Message = z.object({
  smsId: SmsId,
  date: EpochMs,
  type: MessageType,
  text: z.string(),
  media: MediaList,
  direction: Direction,
  status: MessageStatus,
  highlightTarget: z.string(),
  highlightText: z.string(),
  stt: z.string().optional(),
  getStt: z.boolean().optional(),
  sttStatus: SttStatus.optional(),
  /**
   * Decided (issue 21): true on an outgoing message the carrier reported delivered (a message between
   * two numbers of the platform is delivered at once); absent otherwise. The chat shows "Delivered"
   * under the last such bubble.
   */
  delivered: z.literal(true).optional(),
});
export type Message = z.infer<typeof Message>;

/**
 * One rented number (spec 000 §3 virtual phone list, spec 001 §3). `paymentDate` is the next rent
 * date (ISO); `monthRent` the monthly rent in the brand's unit.
 */
export const VirtualPhone = z.object({
  telCode: TelCode,
  phone: z.string(),
  paymentDate: IsoDate,
  monthRent: Money,
  planId: z.number().int(),
  /**
   * Decided (issue 20): false once the number was unsubscribed: it is not renewed and is released on
   * its paymentDate (Number management shows so). True for a number that renews (or was assigned).
   */
  autoRenew: z.boolean(),
});
export type VirtualPhone = z.infer<typeof VirtualPhone>;

const OnOff = z.union([z.literal(0), z.literal(1)]);

export const getVirtualPhoneList = defineEndpoint({
  name: 'getVirtualPhoneList',
  method: 'GET',
  path: '/web/getVirtualPhoneList',
  access: 'session',
  summary:
    "The account's own numbers (chat senders and number management) with the forwarding / voicemail flags.",
  input: Empty,
  output: z.object({
    virtualPhones: z.array(VirtualPhone),
    /** Forwarding to the account phone may be switched on (Settings shows its switch). */
    canForward: z.boolean(),
    canVoicemail: z.boolean(),
    /** 1 = on. Forwarding and voicemail are never both on. */
    forwardStatus: OnOff,
    voicemailStatus: OnOff,
  }),
});

/**
 * Chat lists carry `serverTime` (decided, not in the spec): the server's clock when the list was
 * read. The client passes it as `since` to getChatListByDate after a reconnect, so no message is
 * missed through clock skew.
 */
const ChatListResult = z.object({ chatList: z.array(ChatListItem), serverTime: EpochMs });

export const getChatList = defineEndpoint({
  name: 'getChatList',
  method: 'GET',
  path: '/web/getChatList',
  access: 'session',
  summary:
    'The chat list: the last message of every conversation of the last `months` UTC months (0 = this month).',
  input: z.strictObject({ months: qIntIn(0, constants.chatListMonths).default(constants.chatListMonths) }),
  output: ChatListResult,
});

export const getChatListByDate = defineEndpoint({
  name: 'getChatListByDate',
  method: 'GET',
  path: '/web/getChatListByDate',
  access: 'session',
  summary: 'The chats whose last message is newer than `since` (epoch ms): the refresh after a reconnect.',
  input: z.strictObject({ since: qEpochMs }),
  output: ChatListResult,
});

/**
 * One page of a conversation. Decided paging: messages of the UTC month `ym` (default: the current
 * month), newest first, older than `startTime` when given and newer than `since` when given.
 * `nextStartTime` is the date of the page's oldest message when the month may hold more, else `null`
 * (the client then moves to the previous month). Message dates are distinct within a conversation.
 */
export const getDialogList = defineEndpoint({
  name: 'getDialogList',
  method: 'GET',
  path: '/web/getDialogList',
  access: 'session',
  summary: 'A page of the messages between an own number and another party, newest first, month by month.',
  input: z.strictObject({
    ownFullNumber: FullNumber,
    otherFullNumber: PartyNumber,
    pageSize: qPageSize(constants.messagePageSize),
    ym: YearMonth.optional(),
    since: qEpochMs.optional(),
    startTime: qEpochMs.optional(),
  }),
  output: z.object({ dialogList: z.array(Message), nextStartTime: EpochMs.nullable() }),
});

/** One message to delete: its id and date (spec 000 §7). */
export const SmsRef = z.strictObject({ smsId: SmsId, date: EpochMs });
export type SmsRef = z.infer<typeof SmsRef>;

/**
 * Delete messages, or a whole chat. Either `sms` (JSON text of a list of {smsId, date}) or
 * `from` (own full number) and `to` (the other party): the whole conversation. Decided result: how
 * many messages went; deleting what is already gone is not an error (the client retries once).
 */
export const delSms = defineEndpoint({
  name: 'delSms',
  method: 'DELETE',
  path: '/web/delSms',
  access: 'session',
  summary: 'Delete some messages (sms) or a whole conversation (from, to) of the signed-in account.',
  input: z
    .strictObject({
      sms: jsonString(z.array(SmsRef).min(1).max(constants.messagePageSize)).optional(),
      from: FullNumber.optional(),
      to: PartyNumber.optional(),
    })
    .superRefine((v, ctx) => {
      const byChat = v.from !== undefined || v.to !== undefined;
      if (v.sms !== undefined && byChat) {
        ctx.addIssue({ code: 'custom', message: 'Give sms, or from and to, not both' });
      } else if (v.sms === undefined && (v.from === undefined || v.to === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'sms, or from and to, is required' });
      }
    }),
  output: z.object({ deleted: z.number().int().nonnegative() }),
});

/** A speech-to-text language: `auto` or a BCP 47 tag such as `en-US` or `cmn-Hans-CN`. */
export const SttLanguage = z
  .string()
  .regex(/^(auto|[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3})$/, 'Invalid language');

/**
 * Transcribe a voice message. Decided: `media` is the message's media URL; with `smsId` the result is
 * also kept on the message (stt, sttStatus), so it shows again after a reload. Failures: 600000
 * (service unavailable), 600002 (could not transcribe).
 */
export const speechToText = defineEndpoint({
  name: 'speechToText',
  method: 'GET',
  path: '/web/speechToText',
  access: 'session',
  summary: 'Transcribe the audio of a voice message in a chosen language (or auto).',
  input: z.strictObject({
    media: MediaUrl,
    language: SttLanguage.default('auto'),
    smsId: SmsId.optional(),
  }),
  output: z.object({ text: z.string() }),
});

/**
 * Banner ads (spec 000 §3, spec 001 §3): redirect and picture URLs, each with a Chinese variant
 * (`…Cn`, decided name). '' means no banner.
 */
export const BannerAds = z.object({
  bannerAdsRedirectUrl: z.string(),
  bannerAdsPictureUrl: z.string(),
  bannerAdsRedirectUrlCn: z.string(),
  bannerAdsPictureUrlCn: z.string(),
});
export type BannerAds = z.infer<typeof BannerAds>;

export const getAdConfig = defineEndpoint({
  name: 'getAdConfig',
  method: 'GET',
  path: '/web/getAdConfig',
  access: 'optional',
  summary: "The brand's banner ad (empty strings when the brand shows none).",
  input: Empty,
  output: BannerAds,
});

/**
 * A message found by search (issue 22 §1): which message (`smsId`, `date`) of which conversation
 * (own number × other party), and `snippet`: the text around the first match (with '…' where it was
 * cut), `marks` the [start, end) ranges of the matched words in the snippet (UTF-16 offsets).
 */
export const SearchHit = z.object({
  smsId: SmsId,
  date: EpochMs,
  ownFullNumber: FullNumber,
  otherFullNumber: PartyNumber,
  direction: Direction,
  type: MessageType,
  snippet: z.string(),
  marks: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
});
export type SearchHit = z.infer<typeof SearchHit>;

/**
 * Search the account's messages (issue 22 §1). Decided: `q` is split on white space into words (at
 * most `searchTermsMax`), and a message matches when its text holds every word, anywhere and in any
 * case (so Chinese, without spaces, matches by any part: 验证码 finds 您的验证码是 1234). Deleted
 * messages never match. Newest first; `nextCursor` (opaque) continues the list, null at its end.
 */
export const searchMessages = defineEndpoint({
  name: 'searchMessages',
  method: 'GET',
  path: '/web/searchMessages',
  access: 'session',
  summary: "Find the account's messages holding every word of q, newest first, a page at a time.",
  input: z.strictObject({
    q: z
      .string()
      .trim()
      .min(1, 'Type something to search for')
      .max(constants.searchQueryMax, 'Search text too long'),
    cursor: z.string().max(200).optional(),
  }),
  output: z.object({ results: z.array(SearchHit), nextCursor: z.string().nullable() }),
});
