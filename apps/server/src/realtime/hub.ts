import type { Server } from 'socket.io';
import {
  socketEvents,
  type ClientToServerEvents,
  type CodeSmsEvent,
  type Lang,
  type RenewalFailedEvent,
  type ServerToClientEvents,
} from '@numa/contract';
import { toReceiveMessage, type MessageRow } from '../services/chats';

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
 * How services reach the sockets: `emitMessage` pushes a stored message to every socket of its
 * account, on every server process (with the Redis adapter), each in its own language. Before the
 * socket server is attached (or after it closed) nothing is pushed: messages are stored, and clients
 * refetch after a reconnect.
 */
export class RealtimeHub {
  private io: RealtimeServer | null = null;

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
    if (!io) return;
    for (const lang of langs)
      io.to(langRoom(row.accountId, lang)).emit(socketEvents.receiveMessage, toReceiveMessage(row, lang));
  }

  /** A number's rent could not be paid: to every socket of the account. */
  emitRenewalFailed(accountId: number, event: RenewalFailedEvent) {
    this.io?.to(accountRoom(accountId)).emit(socketEvents.renewalFailed, event);
  }

  /** A code SMS arrived on a number the account locked: to every socket of the account. */
  emitCodeSms(accountId: number, event: (lang: Lang) => CodeSmsEvent) {
    const io = this.io;
    if (!io) return;
    for (const lang of langs) io.to(langRoom(accountId, lang)).emit(socketEvents.codeSms, event(lang));
  }
}
