import { chatKey, type ChatListItem } from '@numa/contract';
import { raiseUnread, totalUnread } from '../logic/unread';
import { SnapshotStore } from './emitter';

export interface ChatEntry extends ChatListItem {
  key: string;
}

export interface ChatListSnapshot {
  status: 'loading' | 'ready' | 'error';
  /** Newest first. */
  chats: readonly ChatEntry[];
  unread: Readonly<Record<string, number>>;
  total: number;
}

export interface UnreadStorage {
  load(): { counts: Record<string, number>; seenUntil: number | null };
  save(v: { counts: Record<string, number>; seenUntil: number | null }): void;
}

const byDateDesc = (a: ChatEntry, b: ChatEntry) =>
  b.date - a.date || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The chat list (spec 000 §2, §3): one entry per own number × other party with its last message, newest
 * first, and each chat's unread count. Counts and the time the list was last read are kept on the
 * device, so a reload keeps them, and chats that got an incoming message while no tab was open count
 * at least one (decided: the server keeps no read state).
 */
export class ChatListStore extends SnapshotStore<ChatListSnapshot> {
  private entries = new Map<string, ChatEntry>();
  private counts: Record<string, number>;
  private seenUntil: number | null;
  /** The server's clock at the last list read: `since` of the next refresh. */
  serverTime: number | null = null;

  constructor(private storage: UnreadStorage) {
    super({ status: 'loading', chats: [], unread: {}, total: 0 });
    const kept = storage.load();
    this.counts = { ...kept.counts };
    this.seenUntil = kept.seenUntil;
  }

  private persist() {
    this.storage.save({ counts: this.counts, seenUntil: this.seenUntil });
  }

  private rebuild(status: ChatListSnapshot['status'] = this.snapshot.status, sort = true) {
    const chats = sort ? [...this.entries.values()].sort(byDateDesc) : this.snapshot.chats;
    const unread = { ...this.counts };
    this.commit({ status, chats, unread, total: totalUnread(unread) });
  }

  setStatus(status: ChatListSnapshot['status']) {
    this.rebuild(status, false);
  }

  get(key: string): ChatEntry | undefined {
    return this.entries.get(key);
  }

  /**
   * Takes a list the server gave (the first read, or a refresh since the last one). Incoming last
   * messages newer than what this device had seen raise their chat once, unless `isOpen` says the
   * user is looking at it.
   */
  applyList(
    list: readonly ChatListItem[],
    serverTime: number,
    opts: { replace: boolean; isOpen?: (key: string) => boolean },
  ) {
    if (opts.replace) this.entries.clear();
    for (const item of list) {
      const key = chatKey(item);
      const before = this.entries.get(key);
      if (before && before.date > item.date) continue;
      this.entries.set(key, { ...item, key });
      const unseen =
        this.seenUntil !== null &&
        item.direction === 'in' &&
        item.date > this.seenUntil &&
        (!before || before.date < item.date);
      if (unseen && !opts.isOpen?.(key) && !(this.counts[key] ?? 0)) this.counts[key] = 1;
    }
    // a chat no longer in the list has no count to show
    for (const key of Object.keys(this.counts)) if (!this.entries.has(key)) delete this.counts[key];
    this.serverTime = Math.max(this.serverTime ?? 0, serverTime);
    this.seenUntil = this.serverTime;
    this.persist();
    this.rebuild('ready');
  }

  /** A message sent or received: its chat moves to the top with it as the last message. */
  upsert(item: ChatListItem) {
    const key = chatKey(item);
    const before = this.entries.get(key);
    if (before && before.date > item.date && before.smsId !== item.smsId) return;
    this.entries.set(key, { ...item, key });
    if (item.direction === 'in') {
      this.seenUntil = Math.max(this.seenUntil ?? 0, item.date);
      this.persist();
    }
    this.rebuild();
  }

  raise(key: string) {
    this.counts[key] = raiseUnread(this.counts[key] ?? 0);
    this.persist();
    this.rebuild(undefined, false);
  }

  clear(key: string) {
    if (!this.counts[key]) return;
    delete this.counts[key];
    this.persist();
    this.rebuild(undefined, false);
  }

  remove(key: string): ChatEntry | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    delete this.counts[key];
    this.persist();
    this.rebuild();
    return entry;
  }
}
