import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, Kicked, retmsg } from '@numa/contract';
import { AccountStatus } from '../src/repositories/accounts';
import { signIn } from './helpers';
import {
  connect,
  inbox,
  makeUser,
  startChatApp,
  textPayload,
  until,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';

/** Sessions and sockets: kicked on sign-in elsewhere / logout / suspension, refresh keeps the socket, reconnect and refetch. */
let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
const open = async (token: string) => {
  const s = await connect(t.url, token);
  sockets.push(s);
  return s;
};
const kickedOf = (s: ChatClientSocket) =>
  new Promise<{ kick: unknown; reason: string }>((resolve) => {
    let kick: unknown = null;
    s.on('kicked', (k) => (kick = k));
    s.on('disconnect', (reason) => resolve({ kick, reason }));
  });

beforeAll(async () => {
  t = await startChatApp();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

describe('kicked', () => {
  it('a sign-in elsewhere ends the sockets of the old session with 100014', async () => {
    const a = await makeUser(t, { number: '+14155550401' });
    const tab1 = await open(a.token);
    const tab2 = await open(a.token);
    const [k1, k2] = [kickedOf(tab1), kickedOf(tab2)];
    await t.app.inject({ method: 'DELETE', url: `/dev/rate-limits?to=${encodeURIComponent(a.email)}` });
    await signIn(t.app, { email: a.email });
    for (const k of await Promise.all([k1, k2])) {
      expect(Kicked.parse(k.kick)).toEqual({ retcode: 100014, retmsg: retmsg(100014, 'en') });
      expect(k.reason).toBe('io server disconnect');
    }
    await expect(connect(t.url, a.token)).rejects.toMatchObject({ data: { retcode: 100014 } });
  });

  it('logout ends its sockets with 100012; a refreshed token keeps the socket working', async () => {
    const a = await makeUser(t, { number: '+14155550411', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    const refreshed = await a.c.get(endpoints.refreshToken.path);
    expect(refreshed.body.retcode).toBe(0);
    a.c.setToken(refreshed.body.data.token);
    // the old token's grace passes; the socket still follows the session to its new token
    await t.db.query(
      `UPDATE sessions SET revoked_at = revoked_at - interval '2 minutes', created_at = created_at - interval '2 minutes' WHERE account_id = $1`,
      [a.accountId],
    );
    const p = textPayload(a.number, '12125550411', 'after a refresh');
    s.emit('sendMessage', p);
    expect((await i.next((m) => m.smsId === p.smsId)).status).toBe(0);

    const k = kickedOf(s);
    await a.c.post(endpoints.logout.path);
    expect(Kicked.parse((await k).kick).retcode).toBe(100012);
  });

  it('a suspended account is kicked (100008) at its next send, and its sockets are refused', async () => {
    const a = await makeUser(t, { number: '+14155550421', balance: 1 });
    const s = await open(a.token);
    const k = kickedOf(s);
    await t.db.query(`UPDATE accounts SET status = $2 WHERE id = $1`, [a.accountId, AccountStatus.suspended]);
    const p = textPayload(a.number, '12125550421', 'suspended?');
    s.emit('sendMessage', p);
    expect(Kicked.parse((await k).kick).retcode).toBe(100008);
    const [row] = await t.db.query(`SELECT 1 FROM messages WHERE sms_id = $1`, [p.smsId]);
    expect(row).toBeUndefined();
    await expect(connect(t.url, a.token)).rejects.toMatchObject({ data: { retcode: 100008 } });
  });
});

describe('reconnect and refetch', () => {
  it('what arrives while a client is away is in getChatListByDate and getDialogList after it reconnects', async () => {
    const a = await makeUser(t, { number: '+14155550431', balance: 1 });
    const b = await makeUser(t, { number: '+14155550432', balance: 1 });
    const sa = await open(a.token);
    const list = await a.c.get(endpoints.getChatList.path);
    const since = list.body.data.serverTime as number;
    sa.close();

    const sb = await open(b.token);
    const ib = inbox(sb);
    const p = textPayload(b.number, a.number, 'while you were offline');
    sb.emit('sendMessage', p);
    expect((await ib.next((m) => m.smsId === p.smsId)).status).toBe(0);

    const back = await open(a.token);
    expect(back.connected).toBe(true);
    const fresh = await a.c.get(endpoints.getChatListByDate.path, { since });
    expect(fresh.body.data.chatList).toEqual([
      expect.objectContaining({
        ownFullNumber: a.number,
        otherFullNumber: b.number,
        text: 'while you were offline',
        direction: 'in',
      }),
    ]);
    const dialog = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: b.number,
      since,
    });
    expect(dialog.body.data.dialogList).toEqual([
      expect.objectContaining({ text: 'while you were offline', status: 0 }),
    ]);
  });

  it('a send repeated after a reconnect (same smsId) is stored and charged once, and confirmed again', async () => {
    const a = await makeUser(t, { number: '+14155550441', balance: 1 });
    const b = await makeUser(t, { number: '+14155550442' });
    const sb = await open(b.token);
    const ib = inbox(sb);
    const s1 = await open(a.token);
    const p = textPayload(a.number, b.number, 'only once');
    s1.emit('sendMessage', p);
    await until(
      async () =>
        (await t.db.query(`SELECT 1 FROM messages WHERE sms_id = $1 AND status = 0`, [p.smsId])).length > 0,
    );
    s1.close();
    const s2 = await open(a.token);
    const i2 = inbox(s2);
    s2.emit('sendMessage', p);
    s2.emit('sendMessage', p);
    expect(await i2.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0, text: 'only once' });
    const charges = await t.db.query(`SELECT 1 FROM ledger WHERE account_id = $1 AND type = 2`, [
      a.accountId,
    ]);
    expect(charges).toHaveLength(1);
    await ib.next((m) => m.text === 'only once');
    await until(
      async () =>
        (await t.db.query(`SELECT 1 FROM messages WHERE account_id = $1`, [b.accountId])).length === 1,
    );
    expect(ib.seen.filter((m) => m.text === 'only once')).toHaveLength(1);
  });
});
