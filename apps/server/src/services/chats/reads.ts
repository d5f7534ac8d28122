import {
  constants,
  fromMinor,
  type BrandId,
  type ChatListItem,
  type Message,
  type SmsRef,
} from '@numa/contract';
import type { Database } from '../../db';
import { ApiError } from '../../lib/errors';
import { bothLangs } from '../../lib/texts';
import type { Encoded } from '../../lib/compression';
import { JsonText, jsonObject } from '../../lib/jsonText';
import {
  SttFailedError,
  SttUnavailableError,
  SttUnsupportedLanguageError,
  type SttPort,
} from '../../providers/stt/port';
import { accountsRepo } from '../../repositories/accounts';
import { adsRepo } from '../../repositories/ads';
import { messagesRepo } from '../../repositories/messages';
import { callsRepo } from '../../repositories/calls';
import { numbersRepo } from '../../repositories/numbers';
import { subscriptionsRepo } from '../../repositories/subscriptions';
import { mediaIdFromUrl, type MediaService } from '../media';
import { monthRange } from '../../lib/dates';

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

const currentYm = (now = new Date()) => now.toISOString().slice(0, 7);

/** getChatList's and getChatListByDate's data (contract). */
interface ChatListResult {
  chatList: ChatListItem[];
  serverTime: number;
}
/** getDialogList's data (contract). */
interface DialogResult {
  dialogList: Message[];
  nextStartTime: number | null;
}

/** A built JSON text, the validator it was built under, and its compressed forms. */
interface KeptText {
  version: string;
  text: string;
  encoded: Encoded;
}

/**
 * JSON texts built by the database (chat lists, conversation pages), kept by key under the validator
 * they were built with, the least recently used dropped first beyond `maxBytes`. Only a hint: every
 * read checks the validator in the database, so a write made through any server shows at the next
 * read. Chat lists: by account and window start, under the count and sum of the account's
 * conversation-row versions (migration 055). Conversation pages: by conversation and page bounds,
 * under the version of the conversation's row, which every change of its messages moves (migration 056).
 * The compressed forms of a kept text are kept with it (lib/compression.ts; a few per cent of its
 * size, not counted).
 */
export class VersionedCache {
  private readonly entries = new Map<string, KeptText>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): KeptText | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps `text` under `version`; returns the place for its compressed forms (kept with it, if it is). */
  set(key: string, version: string, text: string): Encoded {
    this.drop(key);
    const encoded: Encoded = new Map();
    const size = text.length * 2;
    if (size > this.maxBytes / 4) return encoded;
    this.entries.set(key, { version, text, encoded });
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
    return encoded;
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.text.length * 2;
  }
}

/** The chat screen's reads and edits (spec 000 §7): numbers, chat lists, conversation pages, deleting, speech-to-text, ads. */
export function createChatReads(deps: {
  db: Database;
  media: MediaService;
  stt: SttPort;
  /** Memory for built chat lists (default 64 MiB; 0: none kept). */
  chatListCacheBytes?: number;
  /** Memory for built conversation pages (default 32 MiB; 0: none kept). */
  dialogCacheBytes?: number;
}) {
  const { db, media, stt } = deps;
  const lists = new VersionedCache(deps.chatListCacheBytes ?? 64 * 1024 * 1024);
  const pages = new VersionedCache(deps.dialogCacheBytes ?? 32 * 1024 * 1024);
  return {
    async virtualPhones(accountId: number) {
      const [numbers, settings, account, rights, ending] = await Promise.all([
        numbersRepo.ofAccount(db.q, accountId),
        numbersRepo.callSettings(db.q, accountId),
        accountsRepo.byId(db.q, accountId),
        callsRepo.rights(db.q, accountId),
        subscriptionsRepo.notRenewing(db.q, accountId),
      ]);
      return {
        virtualPhones: numbers.map((n) => ({
          telCode: n.telCode,
          phone: n.number,
          paymentDate: n.paymentDate,
          monthRent: fromMinor(n.monthRent),
          planId: n.planId,
          autoRenew: !ending.has(n.id),
        })),
        // decided: calls are forwarded to the account's own phone, so forwarding needs one; and a
        // plan that allows it (numbers area: callsRepo.rights)
        canForward: numbers.length > 0 && !!account?.phone && rights.forward,
        canVoicemail: numbers.length > 0 && rights.voicemail,
        ...settings,
      };
    },

    /**
     * The chat list from the start of the month `months` back (JSON text built by the database). The
     * list last built for this account and window is kept in memory with its validator, which the
     * database checks in the same statement that would build it again: unchanged, nothing is built.
     */
    async chatList(accountId: number, months: number) {
      const from = monthStart(months);
      const key = `${accountId}:${from}`;
      const cached = lists.get(key);
      const serverTime = Date.now();
      const { version, list } = await messagesRepo.chatListJson(db.q, accountId, from, cached?.version);
      if (list !== null) lists.set(key, version, list);
      return jsonObject<ChatListResult>({
        chatList: list ?? cached!.text,
        serverTime: String(serverTime),
      });
    },

    /** Chats with a message since `since` (less the grace). */
    async chatListSince(accountId: number, since: number) {
      const serverTime = Date.now();
      const { list } = await messagesRepo.chatListJson(db.q, accountId, Math.max(0, since - chatListGraceMs));
      return jsonObject<ChatListResult>({ chatList: list!, serverTime: String(serverTime) });
    },

    /**
     * A page of a conversation within a UTC month; `nextStartTime` only when the month holds more. A
     * page built before is kept in memory under its conversation's version, read first (one
     * primary-key lookup): unchanged, the kept page is the answer. The page is read after the version,
     * so it is never older than the version it is kept under (a write in between only makes the next
     * read build it again).
     */
    async dialog(
      accountId: number,
      p: {
        own: string;
        other: string;
        ym?: string | undefined;
        startTime?: number | undefined;
        since?: number | undefined;
        pageSize: number;
      },
    ) {
      const month = monthRange(p.ym ?? currentYm());
      const [from, to] = [month.from.getTime(), month.to.getTime()];
      const key = JSON.stringify([accountId, p.own, p.other, from, to, p.startTime, p.since, p.pageSize]);
      const version = await messagesRepo.conversationVersion(db.q, accountId, p.own, p.other);
      const cached = version === null ? undefined : pages.get(key);
      if (cached && cached.version === version)
        return new JsonText<DialogResult>(cached.text, cached.encoded);
      const page = await messagesRepo.dialogJson(db.q, {
        accountId,
        own: p.own,
        other: p.other,
        from,
        to,
        ...(p.startTime !== undefined ? { before: p.startTime } : {}),
        ...(p.since !== undefined ? { after: p.since } : {}),
        pageSize: p.pageSize,
      });
      const { text } = jsonObject<DialogResult>({
        dialogList: page.list,
        nextStartTime: page.more ? String(page.lastDate) : 'null',
      });
      return new JsonText<DialogResult>(text, version === null ? undefined : pages.set(key, version, text));
    },

    async deleteMessages(
      accountId: number,
      p: { sms?: SmsRef[] | undefined; from?: string | undefined; to?: string | undefined },
    ): Promise<number> {
      return db.tx((tx) =>
        p.sms
          ? messagesRepo.deleteRefs(tx, accountId, p.sms)
          : messagesRepo.deleteChat(tx, accountId, p.from!, p.to!),
      );
    },

    /** Transcribes one of the account's media files; with an smsId, the transcript is kept on that voice message. */
    async speechToText(
      accountId: number,
      p: { media: string; smsId?: string | undefined; language: string },
    ): Promise<string> {
      const id = mediaIdFromUrl(p.media.replace(/^https?:\/\/[^/]+/, ''));
      if (!id) throw new ApiError(100002, null, 'media');
      const file = await media.read(id, accountId);
      if (!file) throw new ApiError(100002, null, 'media');
      if (p.smsId) {
        const message = await messagesRepo.bySmsId(db.q, accountId, p.smsId);
        if (!message || !message.media.split(',').includes(`/media/${id}`))
          throw new ApiError(100002, null, 'smsId');
      }
      try {
        const text = await stt.transcribe({ bytes: file.bytes, mime: file.mime, language: p.language });
        if (p.smsId)
          await messagesRepo.setStt(db.q, accountId, p.smsId, {
            stt: text,
            sttStatus: constants.sttStatus.done,
          });
        return text;
      } catch (err) {
        if (err instanceof SttUnavailableError) throw new ApiError(600000);
        // another language (or Automatic) may work: the message is not marked failed
        if (err instanceof SttUnsupportedLanguageError)
          throw new ApiError(
            600002,
            null,
            err.message,
            bothLangs((t) => t.stt.unsupportedLanguage),
          );
        if (err instanceof SttFailedError) {
          if (p.smsId)
            await messagesRepo.setStt(db.q, accountId, p.smsId, {
              stt: null,
              sttStatus: constants.sttStatus.failed,
            });
          throw new ApiError(600002);
        }
        throw err;
      }
    },

    async adConfig(brand: BrandId) {
      return (
        (await adsRepo.ofBrand(db.q, brand)) ?? {
          bannerAdsRedirectUrl: '',
          bannerAdsPictureUrl: '',
          bannerAdsRedirectUrlCn: '',
          bannerAdsPictureUrlCn: '',
        }
      );
    },
  };
}
