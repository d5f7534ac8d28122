import { constants, type InputOf } from '@numa/contract';
import * as endpoints from '@numa/contract/endpoints';
import { call } from '../../../lib/api';

/* The chats area's calls (the chat service's and its screens'); the own numbers are the account's
 * (shared/api/account.ts useOwnNumbers). */

/** The chat list of the last months (spec 000 §3 getChatList). */
export const fetchChatList = () =>
  call(endpoints.getChatList, { months: constants.chatListMonths }, { silent: true });

/** The chats changed since the server time of the last list (after a reconnect). */
export const fetchChatListSince = (since: number) =>
  call(endpoints.getChatListByDate, { since }, { silent: true });

/** One page of a conversation. */
export const fetchDialogPage = (q: Omit<InputOf<typeof endpoints.getDialogList>, 'pageSize'>) =>
  call(endpoints.getDialogList, { ...q, pageSize: constants.messagePageSize }, { silent: true });

/** Deletes a conversation. */
export const deleteChat = (from: string, to: string) =>
  call(endpoints.delSms, { from, to }, { silent: true });

/** The captcha a send asked for (100010), answered before the message is sent again. */
export const confirmSendCaptcha = (captchaId: string, inputCaptcha: string) =>
  call(endpoints.confirmCaptcha, { captchaId, inputCaptcha }, { silent: true });

/** Transcribes a voice message; the failure (600000 and others) is shown in place by the caller. */
export const speechToText = (media: string, language: string, smsId: string) =>
  call(endpoints.speechToText, { media, language, smsId }, { silent: true });

/** A page of message search results (issue 22 §1). */
export const searchMessages = (q: string, cursor?: string) =>
  call(endpoints.searchMessages, { q, ...(cursor ? { cursor } : {}) }, { silent: true });
