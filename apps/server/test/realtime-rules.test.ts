import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, endpoints, ReceiveMessage, retmsg } from '@numa/contract';
import { newCaptchaId, solveCaptcha } from './helpers';
import {
  connect,
  credit,
  inbox,
  makeUser,
  money,
  newSmsId,
  startChatApp,
  textPayload,
  until,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';

/** Every way a send is refused (nothing stored, nothing charged), MMS, carrier failures with refunds, the abuse captcha. */
let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
const open = async (token: string) => {
  const s = await connect(t.url, token);
  sockets.push(s);
  return s;
};
const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));
const mmsPayload = (from: string, to: string, extra: Record<string, unknown> = {}) => ({
  fromNumber: from,
  toNumber: to,
  fileBuffer: png,
  fileType: 'image/png' as const,
  fileName: 'pixel.png',
  msgType: 'mms' as const,
  smsId: newSmsId(),
  platform: 'numa' as const,
  languagecode: 'en' as const,
  ...extra,
});

beforeAll(async () => {
  t = await startChatApp({ chats: { newRecipientLimit: 3 } });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

/** Sends and returns the failed receiveMessage; checks nothing was stored or charged. */
async function refused(
  s: ChatClientSocket,
  accountId: number,
  payload: Record<string, unknown>,
  retcode: number,
) {
  const before = await money(t.db, accountId);
  const i = inbox(s);
  s.emit('sendMessage', payload as never);
  const m = await i.next((x) => x.smsId === payload.smsId);
  expect(ReceiveMessage.parse(m)).toMatchObject({
    status: 2,
    retcode,
    retmsg: retmsg(retcode, 'en'),
    direction: 'out',
  });
  const stored = await t.db.query(`SELECT 1 FROM messages WHERE account_id = $1 AND sms_id = $2`, [
    accountId,
    payload.smsId,
  ]);
  expect(stored).toHaveLength(0);
  expect(await money(t.db, accountId)).toEqual(before);
  return m;
}

describe('refused sends', () => {
  it('wrong from-number, invalid or own to-number, platform mismatch, empty text, bad payloads', async () => {
    const a = await makeUser(t, { number: '+14155550301', balance: 1 });
    const b = await makeUser(t, { number: '+14155550302', balance: 1 });
    const s = await open(a.token);
    await refused(s, a.accountId, textPayload(b.number, '12125550000', 'not my number'), 300032);
    await refused(s, a.accountId, textPayload('14155550399', '12125550000', 'nobody’s number'), 300032);
    await refused(s, a.accountId, textPayload(a.number, '11234567890', 'no such number'), 300031);
    await refused(s, a.accountId, textPayload(a.number, a.number, 'myself'), 300031);
    await refused(s, a.accountId, textPayload(a.number, b.number, 'hi', { platform: 'wephone' }), 100016);
    await refused(s, a.accountId, textPayload(a.number, b.number, '   '), 100001);
    await refused(
      s,
      a.accountId,
      textPayload(a.number, b.number, 'x'.repeat(constants.smsTextMax + 1)),
      100001,
    );
    await refused(s, a.accountId, textPayload(a.number, b.number, 'hi', { extra: 1 }), 100001);
    await refused(s, a.accountId, textPayload(a.number, '123', 'short'), 100001);

    // garbage never crashes the server; an ack, when asked for, says why
    const acks: unknown[] = [];
    for (const junk of [null, 42, 'text', [1, 2], { smsId: '../../etc' }, { fromNumber: { $gt: '' } }]) {
      // the contract's typing has no acknowledgement; a client may still ask for one
      const withAck = s.timeout(5000) as unknown as {
        emitWithAck(event: string, payload: unknown): Promise<unknown>;
      };
      acks.push(await withAck.emitWithAck('sendMessage', junk));
    }
    expect(acks).toEqual(Array(6).fill({ retcode: 100001, retmsg: expect.any(String) }));
    expect(s.connected).toBe(true);
    const ok = textPayload(a.number, b.number, 'still fine');
    const i = inbox(s);
    s.emit('sendMessage', ok);
    expect((await i.next((m) => m.smsId === ok.smsId)).status).toBe(0);
  });

  it('no balance, or less than the message costs: 400001', async () => {
    const a = await makeUser(t, { number: '+14155550311' });
    const s = await open(a.token);
    await refused(s, a.accountId, textPayload(a.number, '12125550000', 'broke'), 400001);
    await t.db.tx((q) => credit(q, a.accountId, 0.01));
    // 0.01 pays one US segment (0.008) but not two
    await refused(s, a.accountId, textPayload(a.number, '12125550000', 'b'.repeat(200)), 400001);
    const i = inbox(s);
    const one = textPayload(a.number, '12125550000', 'one segment');
    s.emit('sendMessage', one);
    expect((await i.next((m) => m.smsId === one.smsId)).status).toBe(0);
    expect((await money(t.db, a.accountId)).balance).toBe(100 - 80);
  });

  it('toll-free numbers must be registered before they send: 300030', async () => {
    const a = await makeUser(t, { number: '+18005550321', balance: 1 });
    const s = await open(a.token);
    await refused(s, a.accountId, textPayload(a.number, '12125550000', 'hello'), 300030);
    const v = await makeUser(t, { number: '+18885550322', balance: 1, tollFreeVerified: true });
    const sv = await open(v.token);
    const i = inbox(sv);
    const p = textPayload(v.number, '12125550000', 'verified toll-free');
    sv.emit('sendMessage', p);
    expect((await i.next((m) => m.smsId === p.smsId)).status).toBe(0);
  });

  it('MMS: not from Canadian or UK numbers, only pictures, at most 5 MB', async () => {
    const ca = await makeUser(t, { number: '+16135550331', balance: 1 });
    const uk = await makeUser(t, { number: '+447911123456', balance: 1 });
    const us = await makeUser(t, { number: '+14155550333', balance: 1 });
    await refused(await open(ca.token), ca.accountId, mmsPayload(ca.number, us.number), 300034);
    await refused(await open(uk.token), uk.accountId, mmsPayload(uk.number, us.number), 300035);
    const s = await open(us.token);
    await refused(
      s,
      us.accountId,
      mmsPayload(us.number, ca.number, {
        fileBuffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        fileType: 'image/png',
      }),
      300038,
    );
    await refused(s, us.accountId, mmsPayload(us.number, ca.number, { fileType: 'image/svg+xml' }), 100001);
    await refused(
      s,
      us.accountId,
      mmsPayload(us.number, ca.number, { fileBuffer: Buffer.alloc(constants.mmsMaxBytes + 1, 1) }),
      100005,
    );
    await refused(s, us.accountId, mmsPayload(us.number, ca.number, { fileBuffer: Buffer.alloc(0) }), 100001);
    expect(s.connected).toBe(true);
  });

  it('MMS between accounts: stored, charged per MMS, picture readable by both and nobody else', async () => {
    const a = await makeUser(t, { number: '+14155550341', balance: 1 });
    const b = await makeUser(t, { number: '+14155550342' });
    const c = await makeUser(t, { number: '+14155550343' });
    const sa = await open(a.token);
    const sb = await open(b.token);
    const [ia, ib] = [inbox(sa), inbox(sb)];
    const p = mmsPayload(a.number, b.number, { text: 'a picture' });
    sa.emit('sendMessage', p);
    const sent = await ia.next((m) => m.smsId === p.smsId);
    expect(sent).toMatchObject({
      status: 0,
      msgType: 'mms',
      text: 'a picture',
      media: expect.stringMatching(/^\/media\/[\w-]+$/),
    });
    const got = await ib.next((m) => m.direction === 'in');
    expect(got).toMatchObject({ msgType: 'mms', media: sent.media, text: 'a picture' });
    const { bills } = await money(t.db, a.accountId);
    expect(bills[0]).toMatchObject({ type: 3, charge: -200, options: { type: 'mms', count: 1 } });
    for (const [who, status] of [
      [a, 200],
      [b, 200],
      [c, 404],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: sent.media,
        headers: { 'auth-token': who.token },
      });
      expect(res.statusCode).toBe(status);
    }
  });
});

describe('carrier failures', () => {
  it('an unreachable number fails with status 2 and the spec text, and the charge is refunded', async () => {
    const a = await makeUser(t, { number: '+14155550351', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    const balances: number[] = [];
    s.on('balance', (e) => balances.push(e.balance));
    // valid for libphonenumber, but the simulator cannot reach a national number of all zeros
    const p = textPayload(a.number, '61400000000', 'to nowhere');
    s.emit('sendMessage', p);
    const m = await i.next((x) => x.smsId === p.smsId);
    expect(m).toMatchObject({ status: 2, retcode: 300036 });
    // the user reads the spec's message, never the carrier's internal reason (issue 13 §3.9)
    expect(m.retmsg).toBe(retmsg(300036, 'en'));
    expect(m.retmsg).not.toContain('unreachable');
    const { balance, bills } = await money(t.db, a.accountId);
    expect(balance).toBe(10_000);
    expect(bills.slice(0, 2).map((b) => [b.type, b.charge])).toEqual([
      [8, 500],
      [2, -500],
    ]);
    // the socket hears the charge (the send statement's own bill) and then the refund. The notice of
    // the opening credit (makeUser) may reach the socket too, late and with the balance read when it
    // goes (CI once heard it as 0.95 after the socket connected): so the charge is the last 0.95
    // heard, and the refund's 1 comes after it and last
    await until(async () => balances.at(-1) === 1 && balances.includes(0.95));
    expect(balances.lastIndexOf(0.95)).toBe(balances.length - 2);
    expect(balances.at(-1)).toBe(1);
    const [row] = await t.db.query<{ status: number }>(`SELECT status FROM messages WHERE sms_id = $1`, [
      p.smsId,
    ]);
    expect(row?.status).toBe(2);
  });
});

describe('abuse guard', () => {
  it('asks for a captcha (100010) after too many new numbers, and a solved captcha lets the account go on', async () => {
    const a = await makeUser(t, { number: '+14155550361', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    for (const n of ['12125550371', '12125550372', '12125550373']) {
      const p = textPayload(a.number, n, 'hello stranger');
      s.emit('sendMessage', p);
      expect((await i.next((m) => m.smsId === p.smsId)).status).toBe(0);
    }
    await refused(s, a.accountId, textPayload(a.number, '12125550374', 'one too many'), 100010);
    // numbers it already talks to are never held up
    const known = textPayload(a.number, '12125550371', 'hello again');
    s.emit('sendMessage', known);
    expect((await i.next((m) => m.smsId === known.smsId)).status).toBe(0);

    const captchaId = newCaptchaId();
    const answer = await solveCaptcha(t.app, captchaId);
    const solved = await a.c.post(endpoints.confirmCaptcha.path, { captchaId, inputCaptcha: answer });
    expect(solved.body.retcode).toBe(0);
    const next = textPayload(a.number, '12125550374', 'after the captcha');
    s.emit('sendMessage', next);
    expect((await i.next((m) => m.smsId === next.smsId)).status).toBe(0);
  });
  it('counts a burst of first messages to one new number as one new number', async () => {
    const a = await makeUser(t, { number: '+14155550362', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    // sent at once: every one is checked before the first commits, so each looks like a new partner
    const burst = Array.from({ length: 6 }, (_, n) => textPayload(a.number, '12125550381', `at once ${n}`));
    for (const p of burst) s.emit('sendMessage', p);
    for (const p of burst) expect((await i.next((m) => m.smsId === p.smsId)).status).toBe(0);
    // one new number used, two left of the three before the captcha
    for (const n of ['12125550382', '12125550383']) {
      const p = textPayload(a.number, n, 'hello stranger');
      s.emit('sendMessage', p);
      expect((await i.next((m) => m.smsId === p.smsId)).status).toBe(0);
    }
    await refused(s, a.accountId, textPayload(a.number, '12125550384', 'one too many'), 100010);
  });
});
