import { constants, type Message, type SendPayload } from '@numa/contract';
import type { z } from 'zod';
import { monthsBefore, previousMonth, utcMonth } from '../logic/dates';
import { SnapshotStore } from './emitter';

export type SendInput = z.input<typeof SendPayload>;

/** A message as the conversation shows it: the server's fields, plus a send's own state. */
export interface ConvoMessage extends Message {
  /** Sent from this tab and not yet confirmed (status 1), or refused (status 2, with `retmsg`). */
  local?: boolean;
  /** Why a send failed (the server's retmsg). */
  retmsg?: string;
  /** The picture being sent, shown until the server's copy replaces it. */
  previewUrl?: string;
}

/**
 * A conversation's explicit states (after Bluesky's convo model): `idle` before anything is asked,
 * `loading` for the first page, `ready`, `error` when the first page failed (the pre-display is
 * cancelled and a retry is offered).
 */
export type ConvoStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface ConvoSnapshot {
  status: ConvoStatus;
  /** Oldest first: the server's messages and this tab's pending sends, by date. */
  messages: readonly ConvoMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  olderFailed: boolean;
}

export interface PageQuery {
  ownFullNumber: string;
  otherFullNumber: string;
  ym: string;
  startTime?: number;
  since?: number;
}
export interface Page {
  dialogList: Message[];
  nextStartTime: number | null;
}

export interface ConvoDeps {
  fetchPage(q: PageQuery): Promise<Page>;
  /** Hands a send to the socket; false when it is not connected. */
  emit(payload: SendInput): boolean;
  now(): number;
  /** Revokes a preview's object URL. */
  releasePreview?(url: string): void;
}

interface PendingSend {
  message: ConvoMessage;
  payload: SendInput;
}

/**
 * One conversation (own number × other party): its loaded pages, walked month by month, and the sends
 * this tab made, keyed by smsId until the server confirms them (spec 000 §4 Outgoing message, Chat
 * loading). A confirmation updates the pending message in place (status, date, media); a resend after a
 * reconnect reuses its smsId, so the server can tell it is the same message.
 */
export class Convo extends SnapshotStore<ConvoSnapshot> {
  readonly key: string;
  private server = new Map<string, ConvoMessage>();
  private pending = new Map<string, PendingSend>();
  /** The next page to ask for (older), or null when the local-history window is walked. */
  private cursor: { ym: string; startTime?: number } | null = null;
  private oldestMonth: string;
  private loadPromise: Promise<void> | null = null;
  private olderPromise: Promise<void> | null = null;
  private disposed = false;

  constructor(
    readonly ownFullNumber: string,
    readonly otherFullNumber: string,
    private deps: ConvoDeps,
    opts: { lastDate?: number; verificationCode?: boolean } = {},
  ) {
    super({ status: 'idle', messages: [], hasOlder: false, loadingOlder: false, olderFailed: false });
    this.key = `${ownFullNumber}-${otherFullNumber}`;
    const current = utcMonth(deps.now());
    // local history keeps about 4 months; verification-code chats only their current month (spec 000 §7)
    let oldest = current;
    for (let i = 0; i < (opts.verificationCode ? 0 : constants.localCacheMonths); i++)
      oldest = previousMonth(oldest);
    this.oldestMonth = oldest;
    const start = opts.lastDate !== undefined ? utcMonth(opts.lastDate) : current;
    this.cursor = { ym: monthsBefore(start, current) < 0 ? current : start };
  }

  /** The newest date the server has given (pending sends excluded). */
  get newestServerDate(): number | undefined {
    let newest: number | undefined;
    for (const m of this.server.values()) if (newest === undefined || m.date > newest) newest = m.date;
    return newest;
  }

  get hasPending(): boolean {
    for (const p of this.pending.values())
      if (p.message.status === constants.messageStatus.pending) return true;
    return false;
  }

  private rebuild(patch: Partial<ConvoSnapshot> = {}) {
    if (this.disposed) return;
    const all: ConvoMessage[] = [...this.server.values()];
    for (const p of this.pending.values()) if (!this.server.has(p.message.smsId)) all.push(p.message);
    all.sort((a, b) => a.date - b.date || (a.smsId < b.smsId ? -1 : 1));
    this.commit({ ...this.snapshot, ...patch, messages: all, hasOlder: this.cursor !== null });
  }

  private addServer(list: readonly Message[]) {
    for (const m of list) {
      this.server.set(m.smsId, { ...m });
      const p = this.pending.get(m.smsId);
      if (p && m.status !== constants.messageStatus.pending) this.settle(m.smsId);
    }
  }

  private settle(smsId: string) {
    const p = this.pending.get(smsId);
    if (!p) return;
    this.pending.delete(smsId);
    if (p.message.previewUrl) this.deps.releasePreview?.(p.message.previewUrl);
  }

  /**
   * Walks back from the cursor until a page has messages or the window is passed. A month is
   * exhausted when its `nextStartTime` is null; then the previous month is asked.
   */
  private async walk(): Promise<Message[]> {
    while (this.cursor) {
      const { ym, startTime } = this.cursor;
      if (monthsBefore(ym, this.oldestMonth) > 0) {
        this.cursor = null;
        break;
      }
      const page = await this.deps.fetchPage({
        ownFullNumber: this.ownFullNumber,
        otherFullNumber: this.otherFullNumber,
        ym,
        ...(startTime !== undefined ? { startTime } : {}),
      });
      this.cursor =
        page.nextStartTime !== null
          ? { ym, startTime: page.nextStartTime }
          : ym === this.oldestMonth
            ? null
            : { ym: previousMonth(ym) };
      if (page.dialogList.length > 0) return page.dialogList;
    }
    return [];
  }

  /** The first page (once; again after a failure). */
  load(): Promise<void> {
    if (this.snapshot.status === 'ready' || this.snapshot.status === 'loading')
      return this.loadPromise ?? Promise.resolve();
    this.rebuild({ status: 'loading' });
    const cursorAtStart = this.cursor;
    this.loadPromise = this.walk().then(
      (list) => {
        this.addServer(list);
        this.rebuild({ status: 'ready' });
      },
      () => {
        this.cursor = cursorAtStart;
        this.rebuild({ status: 'error' });
      },
    );
    return this.loadPromise;
  }

  /** The next older page (scrolling up). */
  loadOlder(): Promise<void> {
    if (this.snapshot.status !== 'ready' || !this.cursor) return Promise.resolve();
    if (this.olderPromise) return this.olderPromise;
    const cursorAtStart = this.cursor;
    this.rebuild({ loadingOlder: true, olderFailed: false });
    this.olderPromise = this.walk()
      .then(
        (list) => {
          this.addServer(list);
          this.rebuild({ loadingOlder: false });
        },
        () => {
          this.cursor = cursorAtStart;
          this.rebuild({ loadingOlder: false, olderFailed: true });
        },
      )
      .finally(() => {
        this.olderPromise = null;
      });
    return this.olderPromise;
  }

  /** Whether a message of the server is loaded. */
  has(smsId: string): boolean {
    return this.server.has(smsId);
  }

  /**
   * Loads the pages from the newest down to the message `smsId` of `date` and one page older (a search
   * result chosen, issue 22 §1): the history around it is there, newer below it and older above, and
   * scrolling up goes on from there. A message older than the local-history window widens the window
   * to its month. Resolves whether the message was found (false: it is gone, or a page failed).
   */
  async loadThrough(smsId: string, date: number): Promise<boolean> {
    await this.load();
    if (this.snapshot.status !== 'ready') return false;
    const month = utcMonth(date);
    if (monthsBefore(month, this.oldestMonth) > 0) {
      const was = this.oldestMonth;
      this.oldestMonth = month;
      if (this.cursor === null) this.cursor = { ym: previousMonth(was) };
    }
    // one page at a time, as scrolling up would (each page up to constants.messagePageSize)
    for (let guard = 0; guard < 1000 && !this.server.has(smsId) && this.cursor; guard++) {
      await this.loadOlder();
      if (this.snapshot.olderFailed) return false;
    }
    if (!this.server.has(smsId)) return false;
    if (this.cursor) await this.loadOlder();
    return true;
  }

  /**
   * The messages newer than what is loaded (after a reconnect): `since` the newest known date, from the
   * current month back to that date's month.
   */
  async catchUp(): Promise<void> {
    if (this.snapshot.status !== 'ready') return;
    const since = this.newestServerDate;
    if (since === undefined) {
      // nothing loaded yet: the first page again
      this.cursor = { ym: utcMonth(this.deps.now()) };
      this.rebuild({ status: 'idle' });
      return this.load();
    }
    const stop = utcMonth(since);
    let ym = utcMonth(this.deps.now());
    const found: Message[] = [];
    for (let guard = 0; guard < 24; guard++) {
      let startTime: number | undefined;
      for (;;) {
        const page = await this.deps.fetchPage({
          ownFullNumber: this.ownFullNumber,
          otherFullNumber: this.otherFullNumber,
          ym,
          since,
          ...(startTime !== undefined ? { startTime } : {}),
        });
        found.push(...page.dialogList);
        if (page.nextStartTime === null) break;
        startTime = page.nextStartTime;
      }
      if (ym === stop || monthsBefore(ym, stop) > 0) break;
      ym = previousMonth(ym);
    }
    this.addServer(found);
    this.rebuild();
  }

  /** A message pushed by the server: incoming, or a send of this account from another tab. */
  receive(m: Message) {
    this.addServer([m]);
    this.rebuild();
  }

  /**
   * The server's answer to a send (spec 000 §4): 0 sent — the message takes the server's date and
   * media; 2 failed — it keeps its place with the reason. Returns whether the send was this tab's.
   */
  confirm(m: Message, retmsg: string): boolean {
    const p = this.pending.get(m.smsId);
    if (!p) {
      this.receive(m);
      return false;
    }
    if (m.status === constants.messageStatus.failed) {
      p.message = {
        ...p.message,
        status: m.status,
        date: m.date || p.message.date,
        retmsg: retmsg || p.message.retmsg,
      };
      this.rebuild();
      return true;
    }
    if (m.status === constants.messageStatus.sent) {
      const confirmed: ConvoMessage = { ...p.message, ...m, local: false };
      // keep the local picture until the server's copy is shown, if the server sent none
      if (!m.media && p.message.previewUrl) confirmed.previewUrl = p.message.previewUrl;
      else delete confirmed.previewUrl;
      delete confirmed.retmsg;
      this.server.set(m.smsId, confirmed);
      this.pending.delete(m.smsId);
      if (p.message.previewUrl && !confirmed.previewUrl) this.deps.releasePreview?.(p.message.previewUrl);
      this.rebuild();
      return true;
    }
    return true;
  }

  /** Starts a send: the message shows at once as pending (status 1). False when the socket refused it. */
  send(payload: SendInput, preview?: { text: string; previewUrl?: string }): ConvoMessage {
    const message: ConvoMessage = {
      smsId: payload.smsId,
      date: this.deps.now(),
      type: payload.msgType,
      text: preview?.text ?? ('text' in payload && payload.text ? payload.text : ''),
      media: '',
      direction: 'out',
      status: constants.messageStatus.pending,
      highlightTarget: '',
      highlightText: '',
      local: true,
      ...(preview?.previewUrl ? { previewUrl: preview.previewUrl } : {}),
    };
    this.pending.set(payload.smsId, { message, payload });
    if (!this.deps.emit(payload)) {
      message.status = constants.messageStatus.failed;
    }
    this.rebuild();
    return message;
  }

  /** After a reconnect: the sends still unanswered go again, with the same smsId. */
  resendPending(): number {
    let n = 0;
    for (const p of this.pending.values()) {
      if (p.message.status !== constants.messageStatus.pending) continue;
      if (this.deps.emit(p.payload)) n++;
    }
    return n;
  }

  /** The failed send of this tab, to try again as a new message. */
  takeFailed(smsId: string): SendInput | null {
    const p = this.pending.get(smsId);
    if (!p || p.message.status !== constants.messageStatus.failed) return null;
    this.pending.delete(smsId);
    this.rebuild();
    return p.payload;
  }

  /** Failed sends are dropped when the chat is deleted; pictures released. */
  dispose() {
    for (const p of this.pending.values())
      if (p.message.previewUrl) this.deps.releasePreview?.(p.message.previewUrl);
    for (const m of this.server.values()) if (m.previewUrl) this.deps.releasePreview?.(m.previewUrl);
    this.pending.clear();
    this.disposed = true;
  }
}
