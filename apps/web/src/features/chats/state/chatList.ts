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

/** The first index of `sorted` (newest first) whose entry sorts at or after `e`: where `e` is, or goes. */
function positionOf(sorted: readonly ChatEntry[], e: ChatEntry): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byDateDesc(sorted[mid]!, e) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `sorted` without `out` and with `into`, still newest first: one copy and two binary searches, so a
 * message among thousands of chats costs O(n) copying and no sort (issue 13 §2).
 */
function moved(sorted: readonly ChatEntry[], out: ChatEntry | undefined, into: ChatEntry | undefined) {
  const next = sorted.slice();
  if (out) {
    let i = positionOf(next, out);
    if (next[i] !== out) i = next.indexOf(out);
    if (i >= 0) next.splice(i, 1);
  }
  if (into) next.splice(positionOf(next, into), 0, into);
  return next;
}

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

  /** A new snapshot: `chats` given (already in order), or all entries sorted, or the current list. */
  private rebuild(
    status: ChatListSnapshot['status'] = this.snapshot.status,
    order: 'sort' | 'keep' | readonly ChatEntry[] = 'sort',
  ) {
    const chats =
      order === 'sort'
        ? [...this.entries.values()].sort(byDateDesc)
        : order === 'keep'
          ? this.snapshot.chats
          : order;
    const unread = { ...this.counts };
    this.commit({ status, chats, unread, total: totalUnread(unread) });
  }

  setStatus(status: ChatListSnapshot['status']) {
    this.rebuild(status, 'keep');
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
    const entry = { ...item, key };
    this.entries.set(key, entry);
    if (item.direction === 'in') {
      this.seenUntil = Math.max(this.seenUntil ?? 0, item.date);
      this.persist();
    }
    this.rebuild(undefined, moved(this.snapshot.chats, before, entry));
  }

  raise(key: string) {
    this.counts[key] = raiseUnread(this.counts[key] ?? 0);
    this.persist();
    this.rebuild(undefined, 'keep');
  }

  clear(key: string) {
    if (!this.counts[key]) return;
    delete this.counts[key];
    this.persist();
    this.rebuild(undefined, 'keep');
  }

  remove(key: string): ChatEntry | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    delete this.counts[key];
    this.persist();
    this.rebuild(undefined, entry ? moved(this.snapshot.chats, entry, undefined) : 'keep');
    return entry;
  }
}
