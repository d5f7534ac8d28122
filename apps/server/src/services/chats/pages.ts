import type { Database } from '../../db';
import type { MessageRow } from '../../repositories/messages';
import { messagePagesRepo } from '../../repositories/messagePages';

/** A cursor is opaque to programs: base64url of the last item's keys. */
const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function decode<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    return check(v) ? v : null;
  } catch {
    return null;
  }
}

type ConversationCursor = { date: number; own: string; other: string };
const isConversationCursor = (v: unknown): v is ConversationCursor =>
  typeof v === 'object' &&
  v !== null &&
  Number.isSafeInteger((v as ConversationCursor).date) &&
  typeof (v as ConversationCursor).own === 'string' &&
  typeof (v as ConversationCursor).other === 'string';
const isDate = (v: unknown): v is number => Number.isSafeInteger(v);

/** A page and the cursor of the next one (null: the end). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Pages of conversations and messages for programs (/api/v1, issue 21): newest first, continued by an
 * opaque cursor. A cursor that is not one of ours starts from the newest (never an error that a
 * stale client cannot get out of); the rows are the chat screen's own (same account, same copies).
 */
export function createChatPages(deps: { db: Database }) {
  const { db } = deps;
  return {
    async conversationsPage(
      accountId: number,
      p: { cursor?: string | undefined; limit: number },
    ): Promise<Page<MessageRow>> {
      const after = decode(p.cursor, isConversationCursor);
      const rows = await messagePagesRepo.conversations(db.q, accountId, after, p.limit + 1);
      const items = rows.slice(0, p.limit);
      const last = items[items.length - 1];
      return {
        items,
        nextCursor:
          rows.length > p.limit && last
            ? encode({ date: last.date, own: last.ownFullNumber, other: last.otherFullNumber })
            : null,
      };
    },

    async messagesPage(
      accountId: number,
      p: { own: string; other: string; cursor?: string | undefined; limit: number },
    ): Promise<Page<MessageRow>> {
      const before = decode(p.cursor, isDate);
      const rows = await messagePagesRepo.messages(db.q, accountId, p.own, p.other, before, p.limit + 1);
      const items = rows.slice(0, p.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > p.limit && last ? encode(last.date) : null };
    },

    /** One of the account's messages by its id (smsId). */
    message: (accountId: number, smsId: string) => messagePagesRepo.bySmsId(db.q, accountId, smsId),
  };
}
