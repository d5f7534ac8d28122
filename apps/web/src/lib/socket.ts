import { applyBalanceEvent } from './balance';
import { applyRenewalFailed } from './renewalNotice';
import { applyScheduledEvent } from './scheduledEvent';
import { io, type Socket } from 'socket.io-client';
import {
  constants,
  isSessionCode,
  Kicked,
  sessionCodes,
  SocketErrorData,
  socketEvents,
  socketPath,
  type ClientToServerEvents,
  type LanguageCode,
  type SendPayload,
  type ServerToClientEvents,
} from '@numa/contract';
import type { z } from 'zod';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { retcodeText } from './i18n';

/**
 * The connection as the chat screen sees it (spec 000 §4 Connection): `connecting` until the socket is
 * up plus 100 ms, `connected`, `disconnected` while it reconnects (the banner shows), `closed` once
 * ended (logout, kicked).
 */
export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'closed';

export interface ChatSocketHandlers {
  /** Every `receiveMessage`, unparsed: the caller checks it against the contract. */
  onMessage(raw: unknown): void;
  onState(state: ConnectionState): void;
  /**
   * Connected again after a drop. `serverClosed`: the drop was not a ping time-out, so the server may
   * have restarted and the caller spreads its refetch over up to 60 s (spec 000 §4).
   */
  onReconnect(serverClosed: boolean): void;
}

export interface ChatSocket {
  /** Emits a send; false when the socket is not connected (nothing is queued behind the caller's back). */
  send(payload: z.input<typeof SendPayload>): boolean;
  /**
   * What the visible page shows (a chat key, `verification`, or null): told to the server now and
   * after every reconnect, so it sends no push for it (issue 23).
   */
  setViewing(chat: string | null): void;
  readonly state: ConnectionState;
  close(): void;
}

/** What the session codes do (spec 000 §4), for a socket refused or ended by the server. */
export function endSessionFromSocket(retcode: number, retmsg: string) {
  if (!isSessionCode(retcode)) return;
  const session = useSession.getState();
  if (!session.token) return;
  const kick = sessionCodes[retcode] === 'markKicked';
  if (kick) session.markKicked();
  else session.logout(retcode);
  // a kept token refused at once: signed out quietly (stores/session.ts `confirmed`)
  if (session.confirmed || kick) useUi.getState().showAlert(retmsg || retcodeText(retcode));
}

export interface OpenOptions {
  token: string;
  languagecode: LanguageCode;
  /** The server's origin; the page's own by default. */
  url?: string;
}

/**
 * The real-time channel (spec 000 §7): socket.io at /webchat, the token in the query, websocket then
 * polling, reconnecting without limit from 500 ms up to 60 s apart, 25 s connection timeout.
 */
export function openChatSocket(opts: OpenOptions, handlers: ChatSocketHandlers): ChatSocket {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(opts.url ?? window.location.origin, {
    path: socketPath,
    query: { token: opts.token, languagecode: opts.languagecode },
    transports: ['websocket', 'polling'],
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: constants.reconnectDelayMinMs,
    reconnectionDelayMax: constants.reconnectDelayMaxMs,
    timeout: constants.socketTimeoutMs,
    forceNew: true,
  });

  let state: ConnectionState = 'connecting';
  let connectedTimer: number | undefined;
  let everConnected = false;
  let dropped = false;
  let serverClosed = false;
  let closed = false;

  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    handlers.onState(next);
  };

  /**
   * The browser knows when it loses the network before any ping times out: the banner shows at once
   * and the socket is let go; back online, it connects at once instead of waiting out its back-off.
   * Decided: such a drop is ours, not the server's, so it does not count as a server close.
   */
  let wentOffline = false;
  const onOffline = () => {
    if (closed) return;
    // also when the socket closed first (Chrome may close it before telling the page it is offline):
    // the drop was ours, so the reconnect refetches at once (issue 13 §3.2)
    wentOffline = true;
    serverClosed = false;
    if (socket.connected) socket.disconnect();
  };
  const onOnline = () => {
    if (closed) return;
    if (wentOffline || !socket.connected) socket.connect();
  };
  window.addEventListener('offline', onOffline);
  window.addEventListener('online', onOnline);

  const close = () => {
    if (closed) return;
    closed = true;
    window.clearTimeout(connectedTimer);
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('online', onOnline);
    unsubscribeToken();
    socket.removeAllListeners();
    socket.io.removeAllListeners();
    socket.disconnect();
    setState('closed');
  };

  // a refreshed token is used for the next reconnect
  const unsubscribeToken = useSession.subscribe((s) => {
    if (s.token && socket.io.opts.query && typeof socket.io.opts.query === 'object') {
      (socket.io.opts.query as Record<string, string>).token = s.token;
    }
  });

  let viewing: string | null = null;
  socket.on('connect', () => {
    if (viewing !== null) socket.emit('viewing', { chat: viewing });
    window.clearTimeout(connectedTimer);
    // 'connected after 100 ms' (spec 000 §4, §9)
    connectedTimer = window.setTimeout(() => {
      if (!socket.connected) return;
      setState('connected');
      wentOffline = false;
      if (everConnected && dropped) handlers.onReconnect(serverClosed);
      everConnected = true;
      dropped = false;
      serverClosed = false;
    }, constants.connectedAfterMs);
  });

  socket.on('disconnect', (reason) => {
    window.clearTimeout(connectedTimer);
    if (closed) return;
    if (everConnected) dropped = true;
    // the random delay is for a server that closed; a drop of our own network refetches at once
    if (reason !== 'ping timeout' && !wentOffline && navigator.onLine !== false) serverClosed = true;
    setState('disconnected');
    // the server ended this socket without a kick: come back (socket.io does not for this reason)
    if (reason === 'io server disconnect') socket.connect();
  });

  socket.io.on('reconnect_attempt', () => {
    if (!closed) setState('disconnected');
  });

  socket.on('connect_error', (err) => {
    const parsed = SocketErrorData.safeParse((err as Error & { data?: unknown }).data);
    if (parsed.success && isSessionCode(parsed.data.retcode)) {
      close();
      endSessionFromSocket(parsed.data.retcode, parsed.data.retmsg);
      return;
    }
    if (!closed && everConnected) setState('disconnected');
  });

  socket.on(socketEvents.receiveMessage, (raw: unknown) => handlers.onMessage(raw));
  socket.on(socketEvents.balance, (raw: unknown) => applyBalanceEvent(raw));
  socket.on(socketEvents.renewalFailed, (raw: unknown) => applyRenewalFailed(raw));
  socket.on(socketEvents.scheduled, (raw: unknown) => applyScheduledEvent(raw));

  socket.on(socketEvents.kicked, (raw: unknown) => {
    const parsed = Kicked.safeParse(raw);
    close();
    if (parsed.success) endSessionFromSocket(parsed.data.retcode, parsed.data.retmsg);
    else endSessionFromSocket(100012, '');
  });

  return {
    send(payload) {
      if (closed || !socket.connected) return false;
      socket.emit(socketEvents.sendMessage, payload);
      return true;
    },
    setViewing(chat) {
      if (chat === viewing) return;
      viewing = chat;
      if (!closed && socket.connected) socket.emit('viewing', { chat });
    },
    get state() {
      return state;
    },
    close,
  };
}
