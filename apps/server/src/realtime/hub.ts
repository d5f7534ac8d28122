import type { Server } from 'socket.io';
import {
  socketEvents,
  type ClientToServerEvents,
  type CodeSmsEvent,
  type Lang,
  type RenewalFailedEvent,
  type ScheduledEvent,
  type ServerToClientEvents,
} from '@numa/contract';
// the message's wire shape, not the chats service (which holds the hub): no cycle
import { toReceiveMessage, type MessageRow } from '../services/chats/views';

/** Between server processes (through the Redis adapter): re-check the sockets of an account. */
export interface InterServerEvents {
  recheck: (accountId: number) => void;
}

export interface SocketData {
  sessionId: number;
  accountId: number;
  brand: string;
  lang: Lang;
  /** When a send last found the session standing (0: not yet). */
  checkedAt: number;
  /** The handshake token's hash (services/limits holdKey): a flooder's is held off the handshake for a while. */
  holdKey: string;
  /** Events refused by the flood limits in a row. */
  strikes: number;
  /** What the page shows while it is visible (the `viewing` event, issue 23): a chat key, or none. */
  viewing?: string | null;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

export const langs: readonly Lang[] = ['en', 'zh'];
/** Every socket of an account is in its account room and in the room of its language. */
export const accountRoom = (accountId: number) => `a:${accountId}`;
export const langRoom = (accountId: number, lang: Lang) => `a:${accountId}:${lang}`;

/**
 * What happened on an account, as the hub pushes it to the sockets: also heard by the hub's listeners
 * (the webhooks, issue 21), on the server where it happened, whether or not sockets are attached.
 */
export type AccountEvent =
  | { kind: 'message'; row: MessageRow }
  | { kind: 'codeSms'; accountId: number; event: CodeSmsEvent }
  | { kind: 'renewalFailed'; accountId: number; event: RenewalFailedEvent };

/**
 * How services reach the sockets: `emitMessage` pushes a stored message to every socket of its
 * account, on every server process (with the Redis adapter), each in its own language. Before the
 * socket server is attached (or after it closed) nothing is pushed: messages are stored, and clients
 * refetch after a reconnect.
 */
export class RealtimeHub {
  private io: RealtimeServer | null = null;
  private readonly listeners = new Set<(e: AccountEvent) => void>();

  /** Hears every account event this server emits (returns the way to stop hearing). */
  listen(listener: (e: AccountEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(e: AccountEvent) {
    for (const l of this.listeners) l(e);
  }

  /**
   * Whether a socket of the account (on any server, with the Redis adapter) says its page shows this
   * conversation and is visible (issue 23: no push for what the user is looking at).
   */
  async isViewing(accountId: number, chat: string): Promise<boolean> {
    const io = this.io;
    if (!io) return false;
    const sockets = await io.in(accountRoom(accountId)).fetchSockets();
    return sockets.some((s) => s.data.viewing === chat);
  }

  bind(io: RealtimeServer | null) {
    this.io = io;
  }

  get server(): RealtimeServer | null {
    return this.io;
  }

  /**
   * The account's new balance to all its sockets (every server with the Redis adapter); `localOnly`:
   * to this server's sockets only (a change every server heard of, db/notify.ts).
   */
  emitBalance(accountId: number, balance: number, opts: { localOnly?: boolean } = {}) {
    const io = this.io;
    if (!io) return;
    (opts.localOnly ? io.local : io).to(accountRoom(accountId)).emit(socketEvents.balance, { balance });
  }

  emitMessage(row: MessageRow) {
    const io = this.io;
    // the sockets first: the listeners (push, webhooks) start database work, which the push need not wait for
    if (io) {
      for (const lang of langs)
        io.to(langRoom(row.accountId, lang)).emit(socketEvents.receiveMessage, toReceiveMessage(row, lang));
    }
    this.tell({ kind: 'message', row });
  }

  /** A number's rent could not be paid: to every socket of the account. */
  emitRenewalFailed(accountId: number, event: RenewalFailedEvent) {
    this.tell({ kind: 'renewalFailed', accountId, event });
    this.io?.to(accountRoom(accountId)).emit(socketEvents.renewalFailed, event);
  }

  /** A code SMS arrived on a number the account locked: to every socket of the account. */
  emitCodeSms(accountId: number, event: (lang: Lang) => CodeSmsEvent) {
    if (this.listeners.size) this.tell({ kind: 'codeSms', accountId, event: event('en') });
    const io = this.io;
    if (!io) return;
    for (const lang of langs) io.to(langRoom(accountId, lang)).emit(socketEvents.codeSms, event(lang));
  }

  /** A scheduled message changed (issue 22 §2): to every socket of the account, each in its language. */
  emitScheduled(accountId: number, event: (lang: Lang) => ScheduledEvent) {
    const io = this.io;
    if (!io) return;
    for (const lang of langs) io.to(langRoom(accountId, lang)).emit(socketEvents.scheduled, event(lang));
  }
}
