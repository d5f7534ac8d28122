import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, minor, retmsg, zeroMinor } from '@numa/contract';
import { messagesRepo } from '../src/repositories/messages';
import { SttFailedError, type SttPort, type SttRequest } from '../src/providers/stt/port';
import { monthStart } from '../src/services/chats/reads';
import { client, startTestApp, type TestApp } from './helpers';
import { credit, makeUser } from './chat-support';

/** The chat calls over HTTP (app.inject): numbers, chat lists, month-by-month dialog paging, delete, speech-to-text, ads. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));
/** A tiny WAV file (RIFF header + 8 samples of silence): file-type reads it as audio/wav. */
const wav = (() => {
  const data = Buffer.alloc(8);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(8000, 24);
  h.writeUInt32LE(8000, 28);
  h.writeUInt16LE(1, 32);
  h.writeUInt16LE(8, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
})();

const inbound = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/dev/inbound', payload });

/** Stores a message with a chosen date directly (history of past months). */
async function stored(
  accountId: number,
  own: string,
  other: string,
  date: number,
  text: string,
  direction: 'in' | 'out' = 'in',
  more: Partial<Parameters<typeof messagesRepo.insert>[1]> = {},
) {
  return t.db.tx((q) =>
    messagesRepo.insert(q, {
      accountId,
      ownFullNumber: own,
      ownTelCode: '1',
      otherFullNumber: other,
      otherTelCode: '1',
      direction,
      type: 'sms',
      text,
      media: '',
      status: 0,
      smsId: `h-${accountId}-${date}-${text.length}-${Math.random().toString(36).slice(2, 8)}`,
      charge: zeroMinor,
      segments: 1,
      date,
      ...more,
    }),
  );
}

describe('getVirtualPhoneList', () => {
  it("lists the account's numbers, oldest first, with the settings flags", async () => {
    const u = await makeUser(t, { number: '+14155550201' });
    await t.db.tx(async (q) => {
      const { assignNumber } = await import('../src/services/rentals/numbers/assign');
      await assignNumber(q, {
        accountId: u.accountId,
        number: '+16135550202',
        planId: 7,
        monthRent: minor(40_900),
      });
    });
    const res = await u.c.get(endpoints.getVirtualPhoneList.path);
    expect(res.body.retcode).toBe(0);
    expect(res.body.data.virtualPhones).toEqual([
      {
        telCode: '1',
        phone: '4155550201',
        paymentDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        monthRent: 0,
        planId: 0,
        autoRenew: true,
      },
      {
        telCode: '1',
        phone: '6135550202',
        paymentDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        monthRent: 4.09,
        planId: 7,
        autoRenew: true,
      },
    ]);
    expect(res.body.data).toMatchObject({
      canForward: false,
      canVoicemail: true,
      forwardStatus: 0,
      voicemailStatus: 0,
    });
  });

  it('needs a session', async () => {
    const res = await client(t.app).get(endpoints.getVirtualPhoneList.path);
    expect(res.status).toBe(401);
    expect(res.body.retcode).toBe(100012);
  });
});

describe('chat lists and dialog paging', () => {
  it('answers a list read again with what was written since, by any server, and not what was deleted', async () => {
    const a = await makeUser(t, { number: '+14155550216' });
    const texts = async () =>
      (
        (await a.c.get(endpoints.getChatList.path, { months: 4 })).body.data.chatList as { text: string }[]
      ).map((c) => c.text);
    await stored(a.accountId, a.number, '12125550061', Date.now() - 5000, 'first');
    expect(await texts()).toEqual(['first']);
    expect(await texts()).toEqual(['first']); // the kept list, still current
    // written straight into the database, as another server would: this server's memory is not told
    await stored(a.accountId, a.number, '12125550062', Date.now() - 4000, 'second');
    expect(await texts()).toEqual(['second', 'first']);
    await stored(a.accountId, a.number, '12125550061', Date.now() - 3000, 'third');
    expect(await texts()).toEqual(['third', 'second']);
    await inbound({ from: '12125550063', to: a.number, text: 'through this server' });
    expect(await texts()).toEqual(['through this server', 'third', 'second']);
    const del = await a.c.call('DELETE', endpoints.delSms.path, { from: a.number, to: '12125550061' });
    expect(del.body.retcode).toBe(0);
    expect(await texts()).toEqual(['through this server', 'second']);
    // the validator counts on conversation rows never being deleted (migration 055)
    await expect(t.db.query('DELETE FROM chats WHERE account_id = $1', [a.accountId])).rejects.toThrow(
      /never deleted/,
    );
  });

  it('answers a conversation page read again with every change since, by any server: new, status, transcript, deleted', async () => {
    const a = await makeUser(t, { number: '+14155550217' });
    const other = '12125550071';
    const page = async () =>
      (await a.c.get(endpoints.getDialogList.path, { ownFullNumber: a.number, otherFullNumber: other })).body
        .data as { dialogList: Record<string, unknown>[]; nextStartTime: number | null };
    const texts = async () => (await page()).dialogList.map((m) => m.text);
    await stored(a.accountId, a.number, other, Date.now() - 5000, 'first');
    expect(await texts()).toEqual(['first']);
    expect(await texts()).toEqual(['first']); // the kept page, still current
    // written straight into the database, as another server would: this server's memory is not told
    await stored(a.accountId, a.number, other, Date.now() - 4000, 'second');
    expect(await texts()).toEqual(['second', 'first']);
    // another conversation's messages leave this one's page as it was
    await stored(a.accountId, a.number, '12125550072', Date.now() - 3500, 'elsewhere');
    expect(await texts()).toEqual(['second', 'first']);

    // a pending message, then the carrier's outcome (an UPDATE of the message row only)
    const pending = await stored(a.accountId, a.number, other, Date.now(), 'on its way', 'out', {
      status: 1,
      smsId: `pending-${a.accountId}`,
    });
    expect((await page()).dialogList[0]).toMatchObject({ text: 'on its way', status: 1 });
    expect(await messagesRepo.setOutcome(t.db.q, pending.id, { status: 2, retcode: 300001 })).not.toBeNull();
    expect((await page()).dialogList[0]).toMatchObject({ text: 'on its way', status: 2 });

    // a voice message's transcript
    await stored(a.accountId, a.number, other, Date.now(), '', 'in', {
      type: 'voicemail',
      media: '/media/00000000-0000-4000-8000-000000000001.wav',
      smsId: `voice-${a.accountId}`,
    });
    expect((await page()).dialogList[0]).toMatchObject({ type: 'voicemail', sttStatus: 0 });
    await messagesRepo.setStt(t.db.q, a.accountId, `voice-${a.accountId}`, {
      stt: 'call me back',
      sttStatus: 2,
    });
    expect((await page()).dialogList[0]).toMatchObject({
      type: 'voicemail',
      stt: 'call me back',
      sttStatus: 2,
    });

    // deleted through this server, and straight in the database
    const [second] = (await page()).dialogList.filter((m) => m.text === 'second') as [
      { smsId: string; date: number },
    ];
    const del = await a.c.call('DELETE', endpoints.delSms.path, {
      sms: JSON.stringify([{ smsId: second.smsId, date: second.date }]),
    });
    expect(del.body).toMatchObject({ retcode: 0, data: { deleted: 1 } });
    expect(await texts()).toEqual(['', 'on its way', 'first']);
    await t.db.query(`UPDATE messages SET deleted = true WHERE account_id = $1 AND text = 'first'`, [
      a.accountId,
    ]);
    expect(await texts()).toEqual(['', 'on its way']);

    // compressed as the client accepts, the same bytes while the page is unchanged, and what it says
    const compressed = () =>
      t.app.inject({
        method: 'GET',
        url: endpoints.getDialogList.path,
        query: { languagecode: 'en', ownFullNumber: a.number, otherFullNumber: other },
        headers: { host: 'localhost', 'auth-token': a.token, 'accept-encoding': 'gzip, deflate, br' },
      });
    for (let i = 0; i < 40; i++)
      await stored(a.accountId, a.number, other, Date.now() + i, `filler ${i}: long enough to compress`);
    const plain = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
    });
    const first = await compressed();
    const again = await compressed();
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const decoded = JSON.parse(brotliDecompressSync(first.rawPayload).toString()) as typeof plain.body;
    expect(decoded.retcode).toBe(0);
    expect(decoded.data.dialogList).toHaveLength(42);
    expect(decoded.data).toEqual(plain.body.data);
    const gzipped = await t.app.inject({
      method: 'GET',
      url: endpoints.getDialogList.path,
      query: { languagecode: 'en', ownFullNumber: a.number, otherFullNumber: other },
      headers: { host: 'localhost', 'auth-token': a.token, 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString())).toEqual(decoded);
  });

  it('gives the newest message of each chat of the last months, newest chat first, and only the caller’s', async () => {
    const a = await makeUser(t, { number: '+14155550211' });
    const other = await makeUser(t, { number: '+14155550212' });
    const now = Date.now();
    await stored(a.accountId, a.number, '12125550001', monthStart(5) + 1000, 'six months ago');
    await stored(a.accountId, a.number, '12125550002', monthStart(2) + 1000, 'older');
    await stored(a.accountId, a.number, '12125550002', monthStart(2) + 2000, 'newer');
    await stored(a.accountId, a.number, '12125550003', now - 60_000, 'today', 'out');
    await stored(other.accountId, other.number, '12125550009', now - 500, 'not yours');

    const list = await a.c.get(endpoints.getChatList.path, { months: 4 });
    expect(list.body.retcode).toBe(0);
    expect(list.body.data.chatList.map((c: { text: string }) => c.text)).toEqual(['today', 'newer']);
    expect(list.body.data.chatList[0]).toMatchObject({
      ownFullNumber: a.number,
      ownTelCode: '1',
      ownNumber: '4155550211',
      otherFullNumber: '12125550003',
      otherTelCode: '1',
      otherNumber: '2125550003',
      direction: 'out',
      type: 'sms',
    });
    expect(list.body.data.serverTime).toBeGreaterThanOrEqual(now);

    const thisMonth = await a.c.get(endpoints.getChatList.path, { months: 0 });
    expect(thisMonth.body.data.chatList.map((c: { text: string }) => c.text)).toEqual(['today']);
    const bad = await a.c.get(endpoints.getChatList.path, { months: 9 });
    expect(bad.body.retcode).toBe(100001);

    // refetch after a reconnect: only chats with something newer than `since` (less a few seconds' grace)
    const since = list.body.data.serverTime as number;
    expect((await a.c.get(endpoints.getChatListByDate.path, { since })).body.data.chatList).toEqual([]);
    await inbound({ from: '12125550002', to: a.number, text: 'while you were away' });
    const fresh = await a.c.get(endpoints.getChatListByDate.path, { since });
    expect(fresh.body.data.chatList.map((c: { text: string }) => c.text)).toEqual(['while you were away']);
    const older = await a.c.get(endpoints.getChatListByDate.path, { since: now - 120_000 });
    expect(older.body.data.chatList.map((c: { text: string }) => c.text)).toEqual([
      'while you were away',
      'today',
    ]);
  });

  it('pages a conversation newest first, month by month, with nextStartTime', async () => {
    const a = await makeUser(t, { number: '+14155550221' });
    const other = '12125550100';
    const prev = new Date(monthStart(1));
    const ym = prev.toISOString().slice(0, 7);
    for (let i = 0; i < 7; i++)
      await stored(a.accountId, a.number, other, monthStart(1) + i * 60_000, `m${i}`);
    await stored(a.accountId, a.number, other, Date.now() - 10, 'this month');

    const current = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      pageSize: 3,
    });
    expect(current.body.data).toEqual({
      dialogList: [expect.objectContaining({ text: 'this month', status: 0 })],
      nextStartTime: null,
    });

    const page1 = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      pageSize: 3,
      ym,
    });
    expect(page1.body.data.dialogList.map((m: { text: string }) => m.text)).toEqual(['m6', 'm5', 'm4']);
    expect(page1.body.data.nextStartTime).toBe(monthStart(1) + 4 * 60_000);
    const page2 = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      pageSize: 3,
      ym,
      startTime: page1.body.data.nextStartTime,
    });
    expect(page2.body.data.dialogList.map((m: { text: string }) => m.text)).toEqual(['m3', 'm2', 'm1']);
    const page3 = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      pageSize: 3,
      ym,
      startTime: page2.body.data.nextStartTime,
    });
    expect(page3.body.data).toEqual({
      dialogList: [expect.objectContaining({ text: 'm0' })],
      nextStartTime: null,
    });

    const since = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      ym,
      since: monthStart(1) + 4 * 60_000,
    });
    expect(since.body.data.dialogList.map((m: { text: string }) => m.text)).toEqual(['m6', 'm5']);

    const another = await makeUser(t, { number: '+14155550222' });
    const none = await another.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      ym,
    });
    expect(none.body.data).toEqual({ dialogList: [], nextStartTime: null });
    const bad = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: other,
      ym: '2026-13',
    });
    expect(bad.body.retcode).toBe(100001);
  });

  it('keeps dates distinct within a conversation even when messages arrive in the same millisecond', async () => {
    const a = await makeUser(t, { number: '+14155550231' });
    const when = Date.now();
    await Promise.all(
      [0, 1, 2, 3].map((i) => stored(a.accountId, a.number, '12125550300', when, `same ${i}`)),
    );
    const res = await a.c.get(endpoints.getDialogList.path, {
      ownFullNumber: a.number,
      otherFullNumber: '12125550300',
    });
    const dates = res.body.data.dialogList.map((m: { date: number }) => m.date);
    expect(new Set(dates).size).toBe(4);
  });
});

describe('delSms', () => {
  it('deletes chosen messages or a whole chat of the caller only, and again is not an error', async () => {
    const a = await makeUser(t, { number: '+14155550241' });
    const b = await makeUser(t, { number: '+14155550242' });
    await inbound({ from: '12125550400', to: a.number, text: 'one' });
    await inbound({ from: '12125550400', to: a.number, text: 'two' });
    await inbound({ from: '12125550401', to: a.number, text: 'three' });
    const dialog = async (other: string) =>
      (await a.c.get(endpoints.getDialogList.path, { ownFullNumber: a.number, otherFullNumber: other })).body
        .data.dialogList as {
        smsId: string;
        date: number;
        text: string;
      }[];
    const two = (await dialog('12125550400')).find((m) => m.text === 'two')!;

    // someone else cannot delete it
    const theirs = await b.c.call('DELETE', endpoints.delSms.path, {
      sms: JSON.stringify([{ smsId: two.smsId, date: two.date }]),
    });
    expect(theirs.body).toMatchObject({ retcode: 0, data: { deleted: 0 } });

    const res = await a.c.call('DELETE', endpoints.delSms.path, {
      sms: JSON.stringify([{ smsId: two.smsId, date: two.date }]),
    });
    expect(res.body).toMatchObject({ retcode: 0, data: { deleted: 1 } });
    expect((await dialog('12125550400')).map((m) => m.text)).toEqual(['one']);
    // the chat list falls back to the newest message left
    const list = await a.c.get(endpoints.getChatList.path);
    expect(list.body.data.chatList.map((c: { text: string }) => c.text)).toEqual(['three', 'one']);
    const again = await a.c.call('DELETE', endpoints.delSms.path, {
      sms: JSON.stringify([{ smsId: two.smsId, date: two.date }]),
    });
    expect(again.body.data.deleted).toBe(0);

    const chat = await a.c.call('DELETE', endpoints.delSms.path, { from: a.number, to: '12125550400' });
    expect(chat.body.data.deleted).toBe(1);
    expect(
      (await a.c.get(endpoints.getChatList.path)).body.data.chatList.map((c: { text: string }) => c.text),
    ).toEqual(['three']);

    // a new message brings the chat back, dated after everything before it
    await inbound({ from: '12125550400', to: a.number, text: 'four' });
    expect((await dialog('12125550400')).map((m) => m.text)).toEqual(['four']);
  });

  it('refuses malformed requests with 100001', async () => {
    const a = await makeUser(t, { number: '+14155550251' });
    for (const q of [
      {},
      { sms: 'not json' },
      { sms: '[]' },
      { from: a.number },
      { sms: '[{"smsId":"x","date":1}]', from: a.number, to: '12125550000' },
    ]) {
      const res = await a.c.call('DELETE', endpoints.delSms.path, q);
      expect(res.status).toBe(400);
      expect(res.body.retcode).toBe(100001);
    }
  });
});

describe('speechToText', () => {
  it('answers 600000 with the spec text when no provider is configured, after checking the media is yours', async () => {
    const a = await makeUser(t, { number: '+14155550261' });
    const b = await makeUser(t, { number: '+14155550262' });
    const res = await inbound({
      from: '12125550500',
      to: a.number,
      text: '',
      type: 'voicemail',
      media: [wav.toString('base64')],
    });
    expect(res.statusCode).toBe(200);
    const [vm] = (
      await a.c.get(endpoints.getDialogList.path, { ownFullNumber: a.number, otherFullNumber: '12125550500' })
    ).body.data.dialogList;
    expect(vm).toMatchObject({
      type: 'voicemail',
      getStt: true,
      sttStatus: 0,
      media: expect.stringMatching(/^\/media\//),
    });

    const stt = await a.c.get(endpoints.speechToText.path, {
      media: vm.media,
      language: 'en-US',
      smsId: vm.smsId,
    });
    expect(stt.status).toBe(400);
    expect(stt.body).toMatchObject({ retcode: 600000, retmsg: retmsg(600000, 'en') });
    expect(stt.body.retmsg).toBe(
      'Sorry! The Speech-to-text is temporarily unavailable. Please try again later.',
    );

    const notYours = await b.c.get(endpoints.speechToText.path, { media: vm.media });
    expect(notYours.body.retcode).toBe(100002);
    const badLang = await a.c.get(endpoints.speechToText.path, {
      media: vm.media,
      language: 'not a language',
    });
    expect(badLang.body.retcode).toBe(100001);
  });

  it('keeps a transcript on the message when a provider is configured', async () => {
    const seen: SttRequest[] = [];
    const port: SttPort = {
      name: 'test',
      async transcribe(r) {
        seen.push(r);
        if (r.language === 'fr-FR') throw new SttFailedError();
        return 'call me back';
      },
    };
    const t2 = await startTestApp({ stt: port });
    try {
      const a = await makeUser(t2, { number: '+14155550271' });
      await t2.app.inject({
        method: 'POST',
        url: '/dev/inbound',
        payload: { from: '12125550600', to: a.number, type: 'voicemail', media: [wav.toString('base64')] },
      });
      const dialog = () =>
        a.c.get(endpoints.getDialogList.path, { ownFullNumber: a.number, otherFullNumber: '12125550600' });
      const [vm] = (await dialog()).body.data.dialogList;
      const ok = await a.c.get(endpoints.speechToText.path, { media: vm.media, smsId: vm.smsId });
      expect(ok.body).toMatchObject({ retcode: 0, data: { text: 'call me back' } });
      expect(seen[0]).toMatchObject({ mime: 'audio/wav', language: 'auto' });
      expect((await dialog()).body.data.dialogList[0]).toMatchObject({ stt: 'call me back', sttStatus: 2 });
      const failed = await a.c.get(endpoints.speechToText.path, {
        media: vm.media,
        smsId: vm.smsId,
        language: 'fr-FR',
      });
      expect(failed.body.retcode).toBe(600002);
      expect((await dialog()).body.data.dialogList[0]).toMatchObject({ sttStatus: 3 });
    } finally {
      await t2.close();
    }
  });
});

describe('getAdConfig', () => {
  it('gives the brand banner where a brand has one and empty strings elsewhere', async () => {
    const wetalk = await client(t.app, 'wetalk.localhost').get(endpoints.getAdConfig.path);
    expect(wetalk.body.data.bannerAdsPictureUrl).toMatch(/^https:\/\//);
    expect(wetalk.body.data.bannerAdsPictureUrlCn).toMatch(/^https:\/\//);
    const numa = await client(t.app).get(endpoints.getAdConfig.path);
    expect(numa.body.data).toEqual({
      bannerAdsRedirectUrl: '',
      bannerAdsPictureUrl: '',
      bannerAdsRedirectUrlCn: '',
      bannerAdsPictureUrlCn: '',
    });
  });
});

describe('POST /dev/inbound', () => {
  it('stores an MMS from outside with its picture readable by the holder only', async () => {
    const a = await makeUser(t, { number: '+14155550281' });
    const b = await makeUser(t, { number: '+14155550282' });
    await t.db.tx((q) => credit(q, b.accountId, 1));
    const res = await inbound({
      from: '+447911123456',
      to: `+${a.number}`,
      text: 'look',
      media: [`data:image/png;base64,${png.toString('base64')}`],
    });
    expect(res.json()).toEqual({ smsId: expect.stringMatching(/^in:DEV/) });
    const [m] = (
      await a.c.get(endpoints.getDialogList.path, {
        ownFullNumber: a.number,
        otherFullNumber: '447911123456',
      })
    ).body.data.dialogList;
    expect(m).toMatchObject({ type: 'mms', text: 'look', direction: 'in' });
    const mine = await t.app.inject({ method: 'GET', url: m.media, headers: { 'auth-token': a.token } });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    const theirs = await t.app.inject({ method: 'GET', url: m.media, headers: { 'auth-token': b.token } });
    expect(theirs.statusCode).toBe(404);
  });

  it('refuses a number nobody holds, a bad file and bad input', async () => {
    const a = await makeUser(t, { number: '+14155550291' });
    expect((await inbound({ from: '12125550000', to: '14155559999', text: 'hi' })).json().retcode).toBe(
      100002,
    );
    expect(
      (
        await inbound({
          from: '12125550000',
          to: a.number,
          text: 'x',
          media: [Buffer.from('plain text').toString('base64')],
        })
      ).json().retcode,
    ).toBe(300038);
    expect((await inbound({ from: '1', to: a.number, text: 'x' })).json().retcode).toBe(100001);
    expect((await inbound({ from: '12125550000', to: a.number, text: '' })).json().retcode).toBe(100001);
  });
});
