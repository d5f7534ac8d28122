import type { AddressInfo } from 'node:net';
import { io as connectIo, type Socket } from 'socket.io-client';
import {
  constants,
  socketPath,
  toMinor,
  type ClientToServerEvents,
  type ReceiveMessage,
  type ServerToClientEvents,
} from '@numa/contract';
import type { Q, Tx } from '../src/db';
import { ledger } from '../src/repositories/ledger';
import { assignNumber } from '../src/services/rentals/numbers/assign';
import { rawQuery, signIn, startTestApp, type TestApp } from './helpers';
import type { BuildOptions } from '../src/app';

export type ChatClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface ListeningApp extends TestApp {
  url: string;
}

/** A test app listening on a free port (socket.io needs a real server). */
export async function startChatApp(
  opts: Partial<BuildOptions> & { envOverrides?: Record<string, string> } = {},
): Promise<ListeningApp> {
  const t = await startTestApp(opts);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { ...t, url: `http://127.0.0.1:${port}` };
}

let userSeq = 0;
/** A signed-in account with a number and a balance (with its bill row). */
export async function makeUser(
  t: TestApp,
  p: { number: string; balance?: number; email?: string; host?: string; tollFreeVerified?: boolean },
) {
  const email = p.email ?? `chat${process.pid}x${userSeq++}@example.com`;
  const c = await signIn(t.app, { email }, p.host);
  const [{ id: accountId }] = (await t.db.query<{ id: number }>(
    `SELECT id FROM accounts WHERE email = $1 AND brand = $2`,
    [email, (p.host ?? 'localhost').split('.')[0] === 'localhost' ? 'numa' : (p.host ?? '').split('.')[0]],
  )) as [{ id: number }];
  await t.db.tx(async (q) => {
    await assignNumber(q, { accountId, number: p.number, tollFreeVerified: p.tollFreeVerified ?? false });
    if (p.balance) await credit(q, accountId, p.balance);
  });
  return { c, accountId, email, token: c.token!, number: p.number.replace(/\D/g, '') };
}

export async function credit(q: Tx, accountId: number, amount: number) {
  await ledger.apply(q, {
    accountId,
    type: constants.billTypes.adjustment,
    charge: toMinor(amount),
    options: { campaignName: 'test' },
  });
}

/** A connected socket.io client (websocket), or the connect_error's data. */
export function connect(
  url: string,
  token: string,
  opts: { host?: string; languagecode?: 'en' | 'zh_cn' } = {},
): Promise<ChatClientSocket> {
  return new Promise((resolve, reject) => {
    const socket: ChatClientSocket = connectIo(url, {
      path: socketPath,
      query: { token, ...(opts.languagecode ? { languagecode: opts.languagecode } : {}) },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      ...(opts.host ? { extraHeaders: { host: opts.host } } : {}),
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(Object.assign(err, { data: (err as Error & { data?: unknown }).data }));
    });
  });
}

/** Collects every receiveMessage of a socket; `next` waits for one matching a predicate. */
export function inbox(socket: ChatClientSocket) {
  const seen: ReceiveMessage[] = [];
  const waiters: { match: (m: ReceiveMessage) => boolean; resolve: (m: ReceiveMessage) => void }[] = [];
  socket.on('receiveMessage', (m) => {
    seen.push(m);
    for (const w of [...waiters]) {
      if (w.match(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  return {
    seen,
    next(match: (m: ReceiveMessage) => boolean = () => true, timeoutMs = 10_000): Promise<ReceiveMessage> {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no matching receiveMessage within ${timeoutMs} ms; seen ${JSON.stringify(seen)}`),
            ),
          timeoutMs,
        );
        waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
  };
}

/** Waits until `check` returns a value that is not undefined/false (polling a condition, never a fixed sleep). */
export async function until<T>(
  check: () => Promise<T | undefined | false | null>,
  timeoutMs = 10_000,
  everyMs = 25,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false && v !== null) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

let smsSeq = 0;
export const newSmsId = () => `t${process.pid}-${Date.now().toString(36)}-${(smsSeq++).toString(36)}`;

/** A text sendMessage payload. */
export const textPayload = (from: string, to: string, text: string, extra: Record<string, unknown> = {}) => ({
  fromNumber: from,
  toNumber: to,
  text,
  msgType: 'sms' as const,
  smsId: newSmsId(),
  platform: 'numa' as const,
  languagecode: 'en' as const,
  ...extra,
});

/** The balance in ten-thousandths and the account's bill rows, newest first. */
export async function money(db: Q | { q: Q }, accountId: number) {
  const q = 'q' in db ? db.q : db;
  const [a] = (await rawQuery<{ balance: number }>(q, `SELECT balance FROM accounts WHERE id = $1`, [
    accountId,
  ])) as [{ balance: number }];
  const bills = await rawQuery<{
    type: number;
    charge: number;
    afterBalance: number;
    options: Record<string, unknown>;
  }>(
    q,
    `SELECT type, charge, after_balance AS "afterBalance", options FROM ledger WHERE account_id = $1 ORDER BY id DESC`,
    [accountId],
  );
  return { balance: a.balance, bills };
}
