import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { socketEvents, socketPath } from '@numa/contract';
import { useSession } from '../stores/session';
import { useUi } from '../stores/ui';
import { openChatSocket, type ChatSocket, type ConnectionState } from './socket';

/** A real socket.io server on a free port, checking the handshake the way ours does. */
async function startServer() {
  const http = createServer();
  const io = new Server(http, { path: socketPath, transports: ['websocket', 'polling'] });
  const seen: { query: Record<string, unknown>; payloads: unknown[] } = { query: {}, payloads: [] };
  io.use((socket, next) => {
    seen.query = { ...socket.handshake.query };
    const token = socket.handshake.query.token;
    if (token === 'expired') {
      const err = new Error('expired') as Error & { data: unknown };
      err.data = { retcode: 100013, retmsg: 'Your session has expired. Please log in again.' };
      return next(err);
    }
    next();
  });
  io.on('connection', (s) => s.on(socketEvents.sendMessage, (p: unknown) => seen.payloads.push(p)));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { io, url, seen, close: () => new Promise<void>((r) => io.close(() => r())) };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the chat socket (spec 000 §4 Connection, §7)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let socket: ChatSocket | null = null;
  const states: ConnectionState[] = [];
  const reconnects: boolean[] = [];
  const messages: unknown[] = [];
  const handlers = {
    onMessage: (m: unknown) => messages.push(m),
    onState: (s: ConnectionState) => states.push(s),
    onReconnect: (serverClosed: boolean) => reconnects.push(serverClosed),
  };

  beforeEach(async () => {
    server = await startServer();
    states.length = 0;
    reconnects.length = 0;
    messages.length = 0;
    useSession.getState().signIn('tok-1', { canInvite: false, canSetInviter: false });
    useUi.getState().reset();
  });
  afterEach(async () => {
    socket?.close();
    socket = null;
    await server.close();
  });

  it('sends the token in the query, is connected 100 ms after the connect, and emits sends', async () => {
    const opened = Date.now();
    socket = openChatSocket({ token: 'tok-1', languagecode: 'zh_cn', url: server.url }, handlers);
    expect(socket.state).toBe('connecting');
    await until(() => socket!.state === 'connected');
    expect(Date.now() - opened).toBeGreaterThanOrEqual(100);
    expect(server.seen.query).toMatchObject({
      token: 'tok-1',
      languagecode: 'zh_cn',
      transport: 'websocket',
    });
    const payload = {
      fromNumber: '14155550101',
      toNumber: '14155550102',
      text: 'hi',
      msgType: 'sms' as const,
      smsId: 'a1',
      platform: 'numa' as const,
      languagecode: 'en' as const,
    };
    expect(socket.send(payload)).toBe(true);
    await until(() => server.seen.payloads.length === 1);
    expect(server.seen.payloads[0]).toEqual(payload);
    for (const s of await server.io.fetchSockets()) s.emit(socketEvents.receiveMessage, { any: 'thing' });
    await until(() => messages.length === 1);
  });

  it('marks a server close, shows disconnected while reconnecting and reports the reconnect', async () => {
    socket = openChatSocket({ token: 'tok-1', languagecode: 'en', url: server.url }, handlers);
    await until(() => socket!.state === 'connected');
    for (const s of await server.io.fetchSockets()) s.disconnect(true);
    await until(() => states.includes('disconnected'));
    await until(() => reconnects.length === 1);
    expect(reconnects).toEqual([true]);
    expect(socket.state).toBe('connected');
  });

  it("a drop of the user's own network is not a server close: the reconnect refetches at once (issue 13 §3.2)", async () => {
    socket = openChatSocket({ token: 'tok-1', languagecode: 'en', url: server.url }, handlers);
    await until(() => socket!.state === 'connected');
    // the transport goes first, then the browser says it is offline (Chrome's order), then online again
    for (const s of server.io.sockets.sockets.values()) s.conn.close();
    await until(() => states.includes('disconnected'));
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    await until(() => reconnects.length === 1);
    expect(reconnects).toEqual([false]);

    // the browser goes offline while connected: the same
    window.dispatchEvent(new Event('offline'));
    await until(() => socket!.state === 'disconnected');
    window.dispatchEvent(new Event('online'));
    await until(() => reconnects.length === 2);
    expect(reconnects).toEqual([false, false]);

    // and the server closing the transport while the network is up is a server close
    for (const s of server.io.sockets.sockets.values()) s.conn.close();
    await until(() => reconnects.length === 3, 8000);
    expect(reconnects[2]).toBe(true);
  });

  it('logs out with the code when the server kicks the socket, and closes it', async () => {
    const logout = vi.spyOn(useSession.getState(), 'logout');
    socket = openChatSocket({ token: 'tok-1', languagecode: 'en', url: server.url }, handlers);
    await until(() => socket!.state === 'connected');
    for (const s of await server.io.fetchSockets())
      s.emit(socketEvents.kicked, { retcode: 100014, retmsg: 'Signed in elsewhere.' });
    await until(() => socket!.state === 'closed');
    expect(logout).toHaveBeenCalledWith(100014);
    expect(useSession.getState()).toMatchObject({ token: null, kicked: true, endedBy: 100014 });
    expect(useUi.getState().alert?.message).toBe('Signed in elsewhere.');
    expect(
      socket.send({
        fromNumber: '14155550101',
        toNumber: '14155550102',
        text: 'x',
        msgType: 'sms',
        smsId: 'b',
        platform: 'numa',
        languagecode: 'en',
      }),
    ).toBe(false);
  });

  it('a suspended account (100008) is marked kicked and stays signed in', async () => {
    socket = openChatSocket({ token: 'tok-1', languagecode: 'en', url: server.url }, handlers);
    await until(() => socket!.state === 'connected');
    for (const s of await server.io.fetchSockets())
      s.emit(socketEvents.kicked, { retcode: 100008, retmsg: 'Suspended.' });
    await until(() => socket!.state === 'closed');
    expect(useSession.getState()).toMatchObject({ token: 'tok-1', kicked: true });
  });

  it('a handshake refused with a session code logs out and stops reconnecting', async () => {
    useSession.getState().signIn('expired', { canInvite: false, canSetInviter: false });
    socket = openChatSocket({ token: 'expired', languagecode: 'en', url: server.url }, handlers);
    await until(() => socket!.state === 'closed');
    expect(useSession.getState()).toMatchObject({ token: null, endedBy: 100013 });
    expect(useUi.getState().alert?.message).toBe('Your session has expired. Please log in again.');
  });
});
