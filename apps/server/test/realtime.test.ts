import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReceiveMessage, retmsg } from '@numa/contract';
import {
  connect,
  inbox,
  makeUser,
  money,
  startChatApp,
  textPayload,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';
import { rawQuery } from './helpers';

/** The real-time channel with real socket.io clients: handshake, send, confirm, deliver, tabs, ledger. */
let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
const open = async (token: string, opts?: Parameters<typeof connect>[2]) => {
  const s = await connect(t.url, token, opts);
  sockets.push(s);
  return s;
};

beforeAll(async () => {
  t = await startChatApp();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

describe('handshake', () => {
  it('refuses a missing or unknown token with the session retcode in connect_error data', async () => {
    await expect(connect(t.url, 'nope')).rejects.toMatchObject({ data: { retcode: 100012 } });
    const err = await connect(t.url, 'x'.repeat(40)).catch((e: { data: unknown }) => e.data);
    expect(err).toEqual({ retcode: 100012, retmsg: retmsg(100012, 'en') });
  });

  it("refuses a token on another brand's host", async () => {
    const u = await makeUser(t, { number: '+14155550131' });
    await expect(connect(t.url, u.token, { host: 'wephone.localhost' })).rejects.toMatchObject({
      data: { retcode: 100012 },
    });
    const s = await open(u.token);
    expect(s.connected).toBe(true);
  });
});

describe('sending a text between two accounts of the platform', () => {
  it('confirms to the sender, delivers to the other account, charges one segment with its bill row', async () => {
    const a = await makeUser(t, { number: '+14155550141', balance: 1 });
    const b = await makeUser(t, { number: '+14155550142' });
    const sa = await open(a.token);
    const sb = await open(b.token);
    const ina = inbox(sa);
    const inb = inbox(sb);

    const payload = textPayload(a.number, b.number, 'Hello B, this is A');
    sa.emit('sendMessage', payload);

    const confirm = await ina.next((m) => m.smsId === payload.smsId);
    expect(ReceiveMessage.parse(confirm)).toMatchObject({
      direction: 'out',
      status: 0,
      fromNumber: a.number,
      toNumber: b.number,
      fromTelCode: '1',
      fromPhone: '4155550141',
      toPhone: '4155550142',
      text: 'Hello B, this is A',
      retmsg: '',
      msgType: 'sms',
    });
    const got = await inb.next((m) => m.direction === 'in');
    expect(ReceiveMessage.parse(got)).toMatchObject({
      direction: 'in',
      status: 0,
      fromNumber: a.number,
      toNumber: b.number,
      text: 'Hello B, this is A',
      msgType: 'sms',
    });
    expect(got.smsId).toMatch(/^in:/);

    const ma = await money(t.db, a.accountId);
    expect(ma.balance).toBe(10_000 - 80);
    expect(ma.bills[0]).toMatchObject({
      type: 2,
      charge: -80,
      afterBalance: 9_920,
      options: { direction: 'out', from: a.number, to: b.number, count: 1 },
    });
    // receiving is free
    expect((await money(t.db, b.accountId)).bills).toHaveLength(0);

    // B answers; A gets it live
    const reply = textPayload(b.number, a.number, 'Hi A!');
    sb.emit('sendMessage', reply);
    const refused = await inb.next((m) => m.smsId === reply.smsId);
    expect(refused).toMatchObject({ status: 2, retcode: 400001, retmsg: retmsg(400001, 'en') });
  });

  it('counts GSM-7 and UCS-2 segments', async () => {
    const a = await makeUser(t, { number: '+14155550151', balance: 1 });
    const b = await makeUser(t, { number: '+14155550152' });
    const sa = await open(a.token);
    const ina = inbox(sa);
    const long = textPayload(a.number, b.number, 'a'.repeat(161)); // 2 × 153
    const chinese = textPayload(a.number, b.number, '你好'.repeat(36)); // 72 UCS-2 units: 2 × 67
    const ext = textPayload(a.number, b.number, '€'.repeat(80)); // 160 septets: 1 segment
    // at the boundaries an extension character (2 septets) or an emoji (a surrogate pair) is never cut:
    // it moves whole to the next segment, so these take one segment more than their length / 153 (67)
    const extSplit = textPayload(a.number, b.number, '€'.repeat(153)); // 76 + 76 + 1 characters: 3
    const emojiSplit = textPayload(a.number, b.number, `${'a'.repeat(66)}😀${'a'.repeat(66)}`); // 66 | 😀 + 65 | 1: 3
    const emoji = textPayload(a.number, b.number, '😀'.repeat(100)); // 33 emoji (66 units) a segment: 4
    for (const p of [long, chinese, ext, extSplit, emojiSplit, emoji]) {
      sa.emit('sendMessage', p);
      expect((await ina.next((m) => m.smsId === p.smsId)).status).toBe(0);
    }
    const { balance, bills } = await money(t.db, a.accountId);
    expect(bills.slice(0, 6).map((b) => [b.charge, b.options.count])).toEqual([
      [-320, 4],
      [-240, 3],
      [-240, 3],
      [-80, 1],
      [-160, 2],
      [-160, 2],
    ]);
    expect(balance).toBe(10_000 - 1200);
    // both copies (A's sent, B's received on the platform) and a text from outside store the same count
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+1 (212) 555-0100', to: `+${b.number}`, text: '€'.repeat(153) },
    });
    const copies = await rawQuery<{ smsId: string; sent: number; received: number }>(
      t.db.q,
      `SELECT a.sms_id AS "smsId", a.segments AS sent, b.segments AS received
         FROM messages a JOIN messages b ON b.account_id = $2 AND b.sms_id = 'in:p' || a.id
        WHERE a.account_id = $1 AND a.sms_id = ANY($3::text[]) ORDER BY a.id`,
      [a.accountId, b.accountId, [extSplit.smsId, emojiSplit.smsId, emoji.smsId]],
    );
    expect(copies).toEqual([
      { smsId: extSplit.smsId, sent: 3, received: 3 },
      { smsId: emojiSplit.smsId, sent: 3, received: 3 },
      { smsId: emoji.smsId, sent: 4, received: 4 },
    ]);
    const [fromOutside] = await rawQuery<{ segments: number }>(
      t.db.q,
      `SELECT segments FROM messages WHERE account_id = $1 AND other_full_number = '12125550100'`,
      [b.accountId],
    );
    expect(fromOutside!.segments).toBe(3);
  });

  it('shows every message on both tabs of one account, sent and received', async () => {
    const a = await makeUser(t, { number: '+14155550161', balance: 1 });
    const b = await makeUser(t, { number: '+14155550162' });
    const tab1 = await open(a.token);
    const tab2 = await open(a.token);
    const [in1, in2] = [inbox(tab1), inbox(tab2)];
    const sb = await open(b.token);
    const p = textPayload(a.number, b.number, 'from tab one');
    tab1.emit('sendMessage', p);
    expect((await in1.next((m) => m.smsId === p.smsId)).status).toBe(0);
    expect((await in2.next((m) => m.smsId === p.smsId)).status).toBe(0);

    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+1 (212) 555-0100', to: `+${a.number}`, text: 'from outside' },
    });
    const m1 = await in1.next((m) => m.text === 'from outside');
    const m2 = await in2.next((m) => m.text === 'from outside');
    expect(m1).toEqual(m2);
    expect(m1).toMatchObject({
      direction: 'in',
      fromNumber: '12125550100',
      fromTelCode: '1',
      fromPhone: '2125550100',
      toNumber: a.number,
    });
    expect(inbox(sb).seen).toHaveLength(0);
  });

  it('speaks the language of the socket', async () => {
    const a = await makeUser(t, { number: '+14155550171' });
    const s = await open(a.token, { languagecode: 'zh_cn' });
    const i = inbox(s);
    const p = textPayload(a.number, '14155550172', 'no money', { languagecode: 'zh_cn' });
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId)).toMatchObject({
      status: 2,
      retcode: 400001,
      retmsg: retmsg(400001, 'zh'),
    });
  });
});
