import {
  chatKey,
  constants,
  isSessionCode,
  R,
  ReceiveMessage,
  type ChatListItem,
  type Message,
} from '@numa/contract';
import { afterPaint } from '../../../lib/afterPaint';
import { brand } from '../../../lib/config';
import { currentLanguageCode, i18n, retcodeText } from '../../../lib/i18n';
import {
  endSessionFromSocket,
  openChatSocket,
  type ChatSocket,
  type ConnectionState,
} from '../../../lib/socket';
import { storage } from '../../../lib/storage';
import { onSessionReset, useSession } from '../../../stores/session';
import { useUi } from '../../../stores/ui';
import { cachedBalance, refreshBalance } from '../../../shared/api/account';
import { deleteChat, fetchChatList, fetchChatListSince, fetchDialogPage } from '../api/chats';
import { lookupContactName } from '../extensions';
import { formatFullNumber, splitFullNumber } from '../logic/number';
import { shouldNotify, shouldRaiseUnread } from '../logic/unread';
import { askNotificationPermission, playChime, showDesktopNotification } from '../notify';
import { ChatListStore, type UnreadStorage } from './chatList';
import { Convo, type SendInput } from './convo';
import { SnapshotStore } from './emitter';
import { useChatsUi } from './ui';
import { newSmsId } from '../logic/ids';

const UNREAD_KEY = 'numa.chats.unread';

const unreadStorage: UnreadStorage = {
  load() {
    if (unsaved) return { counts: { ...unsaved.counts }, seenUntil: unsaved.seenUntil };
    try {
      const v = JSON.parse(storage.get(UNREAD_KEY) ?? 'null') as {
        counts?: unknown;
        seenUntil?: unknown;
      } | null;
      const counts: Record<string, number> = {};
      if (v && typeof v.counts === 'object' && v.counts) {
        for (const [k, n] of Object.entries(v.counts))
          if (typeof n === 'number' && n > 0) counts[k] = Math.min(n, constants.unreadCap + 1);
      }
      return { counts, seenUntil: typeof v?.seenUntil === 'number' ? v.seenUntil : null };
    } catch {
      return { counts: {}, seenUntil: null };
    }
  },
  // written after the message is on screen, not on its path: the latest counts once the burst is
  // over, and at once when the page goes away (issue 24 §1: a synchronous localStorage write was
  // 2 ms of every incoming message)
  save(v) {
    unsaved = v;
    if (saveTimer === undefined) saveTimer = window.setTimeout(saveUnread, SAVE_DELAY_MS);
  },
};

const SAVE_DELAY_MS = 250;
let unsaved: Parameters<UnreadStorage['save']>[0] | null = null;
let saveTimer: number | undefined;
function saveUnread() {
  window.clearTimeout(saveTimer);
  saveTimer = undefined;
  if (unsaved) storage.set(UNREAD_KEY, JSON.stringify(unsaved));
  unsaved = null;
}
if (typeof window !== 'undefined') window.addEventListener('pagehide', saveUnread);

export interface StatusSnapshot {
  connection: ConnectionState;
  /** The first chat-list read is running. */
  listLoading: boolean;
  /** A delete is running. */
  deleting: boolean;
}

/** A picture ready to go: the rules of spec 000 §5 applied. */
export interface OutgoingImage {
  blob: Blob;
  type: string;
  name: string;
}

/**
 * The chats area's engine, one per signed-in session: the socket, the chat list, the conversations and
 * the unread/notification rules (spec 000 §4). Components read it through `useSyncExternalStore`.
 */
export class ChatService {
  readonly list = new ChatListStore(unreadStorage);
  readonly status = new (class extends SnapshotStore<StatusSnapshot> {
    set(patch: Partial<StatusSnapshot>) {
      this.commit({ ...this.snapshot, ...patch });
    }
  })({ connection: 'connecting', listLoading: true, deleting: false });
  private convos = new Map<string, Convo>();
  private socket: ChatSocket | null = null;
  private refreshTimer: number | undefined;
  /** A reconnect happened while another tab was shown: refresh when the chats tab shows again. */
  private staleList = false;
  private disposed = false;
  private unsubscribers: (() => void)[] = [];
  /** Set by the message view: the open conversation is scrolled near its bottom. */
  nearBottom = true;
  /**
   * What a message changes besides its conversation (the chat list's row, the unread counts, the
   * arrival signals), run after the conversation has painted it (issue 24 §1), in arrival order.
   */
  private later: (() => void)[] = [];

  constructor(private token: string) {}

  start() {
    this.socket = openChatSocket(
      { token: this.token, languagecode: currentLanguageCode() },
      {
        onMessage: (raw) => this.onMessage(raw),
        onState: (connection) => this.status.set({ connection }),
        onReconnect: (serverClosed) => this.onReconnect(serverClosed),
      },
    );
    // the rail badge and the page title follow the total
    this.unsubscribers.push(
      this.list.subscribe(() => useUi.getState().setUnread(this.list.getSnapshot().total)),
    );
    useUi.getState().setUnread(this.list.getSnapshot().total);
    // the server sends no push for the chat this page shows while visible (issue 23)
    const tellViewing = () => {
      const key = useChatsUi.getState().selectedKey;
      const shown = key !== null && document.visibilityState === 'visible' && this.isOpen(key);
      this.socket?.setViewing(shown ? key : null);
    };
    document.addEventListener('visibilitychange', tellViewing);
    this.unsubscribers.push(useChatsUi.subscribe(tellViewing), useUi.subscribe(tellViewing), () =>
      document.removeEventListener('visibilitychange', tellViewing),
    );
    void this.loadList();
  }

  dispose() {
    this.disposed = true;
    this.later = [];
    window.clearTimeout(this.refreshTimer);
    this.socket?.close();
    this.unsubscribers.forEach((u) => u());
    this.convos.forEach((c) => c.dispose());
    this.convos.clear();
  }

  // --- the list ---

  async loadList(): Promise<void> {
    this.status.set({ listLoading: true });
    this.list.setStatus('loading');
    try {
      const res = await fetchChatList();
      if (this.disposed) return;
      this.runLater();
      this.list.applyList(res.chatList, res.serverTime, { replace: true, isOpen: (k) => this.isOpen(k) });
    } catch {
      if (!this.disposed) this.list.setStatus('error');
    } finally {
      if (!this.disposed) this.status.set({ listLoading: false });
    }
  }

  /** The chats changed since the last read (after a reconnect), and the loaded conversations caught up. */
  async refreshSince(): Promise<void> {
    const since = this.list.serverTime;
    if (since === null) return this.loadList();
    try {
      const res = await fetchChatListSince(since);
      if (this.disposed) return;
      this.runLater();
      this.list.applyList(res.chatList, res.serverTime, { replace: false, isOpen: (k) => this.isOpen(k) });
      for (const item of res.chatList) {
        const convo = this.convos.get(chatKey(item));
        if (convo && (convo.newestServerDate ?? 0) < item.date) void convo.catchUp().catch(() => {});
      }
    } catch {
      /* the next reconnect or a reload tries again */
    }
  }

  /** Called when the chats tab shows: a refresh a reconnect left for later. */
  refreshIfStale() {
    if (!this.staleList) return;
    this.staleList = false;
    void this.refreshSince();
  }

  private onReconnect(serverClosed: boolean) {
    // sends still unanswered go again with their smsId, at once
    for (const convo of this.convos.values()) convo.resendPending();
    if (useUi.getState().tab !== 'chats') {
      this.staleList = true;
      return;
    }
    window.clearTimeout(this.refreshTimer);
    // after a server close, everyone reconnects at once: spread the refetch over up to 60 s
    const delay = serverClosed ? Math.floor(Math.random() * constants.reconnectJitterMaxMs) : 0;
    this.refreshTimer = window.setTimeout(() => void this.refreshSince(), delay);
  }

  // --- conversations ---

  convo(ownFullNumber: string, otherFullNumber: string): Convo {
    const key = `${ownFullNumber}-${otherFullNumber}`;
    let convo = this.convos.get(key);
    if (!convo) {
      const item = this.list.get(key);
      convo = new Convo(
        ownFullNumber,
        otherFullNumber,
        {
          fetchPage: fetchDialogPage,
          emit: (payload) => this.socket?.send(payload) ?? false,
          now: () => Date.now(),
          releasePreview: (url) => URL.revokeObjectURL(url),
        },
        { ...(item ? { lastDate: item.date } : {}), verificationCode: item?.type === 'verificationCode' },
      );
      this.convos.set(key, convo);
    }
    return convo;
  }

  private isOpen(key: string) {
    const ui = useChatsUi.getState();
    return !ui.composing && ui.selectedKey === key && useUi.getState().tab === 'chats';
  }

  /** Opening a chat or focusing its input clears its count (spec 000 §4). */
  markRead(key: string) {
    this.list.clear(key);
  }

  // --- sending ---

  /** Balance above 0, or the no-credit prompt (spec 000 §5). Unknown balance: the server decides. */
  private hasCredit(): boolean {
    const data = cachedBalance();
    if (data && data.balance <= 0) {
      useUi.getState().showError({ kind: 'insufficient', message: retcodeText(R.insufficientBalance) });
      return false;
    }
    return true;
  }

  private base(from: string, to: string, smsId = newSmsId()) {
    return { fromNumber: from, toNumber: to, smsId, platform: brand.id, languagecode: currentLanguageCode() };
  }

  private afterSend(
    convo: Convo,
    message: { smsId: string; date: number; text: string; type: Message['type'] },
  ) {
    askNotificationPermission();
    this.defer(() => {
      const [ownTelCode, otherTelCode] = [telCodeOf(convo.ownFullNumber), telCodeOf(convo.otherFullNumber)];
      this.list.upsert(
        listItem(convo.ownFullNumber, convo.otherFullNumber, ownTelCode, otherTelCode, {
          ...message,
          media: '',
          direction: 'out',
        }),
      );
    });
  }

  /** Runs `fn` after the next paint, behind what was deferred before it. */
  private defer(fn: () => void) {
    this.later.push(fn);
    if (this.later.length === 1) afterPaint(() => this.runLater());
  }

  /** Runs what waits for the paint now (before anything that reads or replaces the list). */
  private runLater() {
    const run = this.later;
    this.later = [];
    if (!this.disposed) for (const fn of run) fn();
  }

  sendText(from: string, to: string, text: string): boolean {
    if (!text.trim() || !this.hasCredit()) return false;
    const convo = this.convo(from, to);
    const payload: SendInput = { ...this.base(from, to), text, msgType: 'sms' };
    const m = convo.send(payload);
    this.afterSend(convo, m);
    return true;
  }

  async sendImage(from: string, to: string, image: OutgoingImage): Promise<boolean> {
    if (!this.hasCredit()) return false;
    const convo = this.convo(from, to);
    const fileBuffer = await image.blob.arrayBuffer();
    const payload: SendInput = {
      ...this.base(from, to),
      fileBuffer,
      fileType: image.type as (typeof constants.mmsMimeTypes)[number],
      fileName: image.name,
      msgType: 'mms',
    };
    const m = convo.send(payload, { text: '', previewUrl: URL.createObjectURL(image.blob) });
    this.afterSend(convo, m);
    return true;
  }

  /** A failed send of this tab, sent again as a new message (a new smsId). */
  retry(key: string, smsId: string) {
    const convo = this.convos.get(key);
    const payload = convo?.takeFailed(smsId);
    if (!convo || !payload || !this.hasCredit()) return;
    const again = { ...payload, smsId: newSmsId() } as SendInput;
    const m = convo.send(again, again.msgType === 'mms' ? { text: '' } : undefined);
    this.afterSend(convo, m);
  }

  // --- the socket's messages ---

  private onMessage(raw: unknown) {
    const parsed = ReceiveMessage.safeParse(raw);
    if (!parsed.success) {
      console.warn('receiveMessage breaks the contract', parsed.error.issues);
      return;
    }
    const m = parsed.data;
    const incoming = m.direction === 'in';
    const own = incoming ? m.toNumber : m.fromNumber;
    const other = incoming ? m.fromNumber : m.toNumber;
    const ownTelCode = incoming ? m.toTelCode : m.fromTelCode;
    const otherTelCode = incoming ? m.fromTelCode : m.toTelCode;
    const key = `${own}-${other}`;
    const message: Message = {
      smsId: m.smsId,
      date: m.time,
      type: m.msgType,
      text: m.text,
      media: m.media,
      direction: m.direction,
      status: m.status,
      highlightTarget: m.highlightTarget,
      highlightText: m.highlightText,
      ...(m.delivered ? { delivered: true as const } : {}),
    };
    const convo = this.convos.get(key);
    if (!incoming) {
      // the charge's new balance comes as its own socket event (applyBalanceEvent): no call for it here
      const mine = convo?.confirm(message, m.retmsg) ?? false;
      if (mine && m.status === constants.messageStatus.failed)
        this.onSendFailed(key, m.smsId, m.retcode, m.retmsg);
    } else {
      convo?.receive(message);
    }
    // the conversation above paints the message first; its chat row, the counts and the signals follow
    this.defer(() => {
      if (/^\d{5,16}$/.test(own)) this.list.upsert(listItem(own, other, ownTelCode, otherTelCode, message));
      if (incoming) this.onIncoming(key, other, message);
    });
  }

  private onIncoming(key: string, other: string, message: Message) {
    const focused = document.hasFocus();
    const raise = shouldRaiseUnread({
      chatOpen: this.isOpen(key),
      tabShown: useUi.getState().tab === 'chats',
      windowFocused: focused,
      nearBottom: this.nearBottom,
    });
    if (raise) this.list.raise(key);
    if (shouldNotify(message.type, 'in', focused)) {
      playChime();
      const name = lookupContactName(other) ?? formatFullNumber(other);
      showDesktopNotification(name, previewText(message), key, () => {
        useUi.getState().navigate('chats');
        useChatsUi.getState().select(key);
      });
    }
  }

  /** What a refused send does (spec 000 §8). */
  private onSendFailed(key: string, smsId: string, retcode: number | undefined, message: string) {
    const text = message || retcodeText(retcode ?? R.messageFailed);
    if (retcode === R.tollFreeRegistration) {
      useChatsUi.getState().setModal({ kind: 'tollFree', message: text });
    } else if (retcode === R.captchaRequired) {
      useChatsUi.getState().setModal({ kind: 'captcha', key, smsId });
    } else if (retcode === R.insufficientBalance) {
      void refreshBalance();
      useUi.getState().showError({ kind: 'insufficient', message: text });
    } else if (retcode !== undefined && isSessionCode(retcode)) {
      endSessionFromSocket(retcode, text);
    } else if (!useUi.getState().captchaOpen) {
      useUi.getState().showAlert(text);
    }
  }

  // --- deleting ---

  /**
   * Delete chat (spec 000 §4): gone locally at once, then the server is asked, once more if that fails.
   * Decided: if both tries fail the list is read again (the chat comes back) and the user is told.
   */
  async deleteChat(key: string): Promise<boolean> {
    this.runLater();
    const entry = this.list.remove(key);
    const convo = this.convos.get(key);
    convo?.dispose();
    this.convos.delete(key);
    const ui = useChatsUi.getState();
    if (ui.selectedKey === key) ui.select(null);
    const [from, to] = entry
      ? [entry.ownFullNumber, entry.otherFullNumber]
      : (key.split('-') as [string, string]);
    this.status.set({ deleting: true });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await deleteChat(from, to);
          return true;
        } catch {
          /* once more */
        }
      }
      useUi.getState().showSnackbar({ message: i18n.t('chats.delete.failed'), tone: 'error' });
      void this.loadList();
      return false;
    } finally {
      if (!this.disposed) this.status.set({ deleting: false });
    }
  }
}

const telCodeOf = (full: string) => splitFullNumber(full).telCode;

function listItem(
  own: string,
  other: string,
  ownTelCode: string,
  otherTelCode: string,
  m: Omit<Message, 'status' | 'highlightTarget' | 'highlightText'> & Partial<Message>,
): ChatListItem {
  return {
    ownFullNumber: own,
    ownTelCode: ownTelCode || telCodeOf(own),
    ownNumber: ownTelCode && own.startsWith(ownTelCode) ? own.slice(ownTelCode.length) : own,
    otherFullNumber: other,
    otherTelCode,
    otherNumber: otherTelCode && other.startsWith(otherTelCode) ? other.slice(otherTelCode.length) : other,
    date: m.date,
    text: m.text,
    media: m.media,
    type: m.type,
    smsId: m.smsId,
    direction: m.direction,
  };
}

/** The one-line preview of a message (chat rows, notifications). */
export function previewText(m: Pick<Message, 'type' | 'text' | 'media'>): string {
  if (m.text.trim()) return m.text.replace(/\s+/g, ' ').trim();
  if (m.type === 'voicemail') return i18n.t('chats.preview.voice');
  if (m.media) return i18n.t('chats.preview.picture');
  return '';
}

// --- one service per signed-in session ---

let current: ChatService | null = null;

/** The session's chat service, started on first use and ended with the session. */
export function getChatService(): ChatService | null {
  const token = useSession.getState().token;
  if (!token) return null;
  if (!current) {
    current = new ChatService(token);
    current.start();
  }
  return current;
}

onSessionReset(() => {
  current?.dispose();
  current = null;
  window.clearTimeout(saveTimer);
  saveTimer = undefined;
  unsaved = null;
  storage.remove(UNREAD_KEY);
  useChatsUi.getState().reset();
});
