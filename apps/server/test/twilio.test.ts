import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retmsg } from '@numa/contract';
import { twilioSignature } from '../src/providers/carrier/twilio';
import {
  connect,
  inbox,
  makeUser,
  money,
  newSmsId,
  startChatApp,
  textPayload,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';

/**
 * CARRIER=twilio against a local fake of Twilio's Messages REST call (a real HTTP server), and signed
 * webhooks built from Twilio's documented payloads (incoming message, status callback).
 */
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'f3c1b2a4d5e6f7a8b9c0d1e2f3a4b5c6';
const MSID = `MG${'fedcba9876543210'.repeat(2)}`;
const BASE = 'https://numa.example.com';
const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));

interface Received {
  method: string;
  url: string;
  auth: string | undefined;
  form: URLSearchParams;
}
let fake: Server;
let fakeUrl: string;
const received: Received[] = [];
let seq = 0;

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (s += c));
    req.on('end', () => resolve(s));
  });

/** What Twilio's API does for the calls we make: create a Message, serve an inbound message's media. */
async function startFake() {
  fake = createServer(async (req, res) => {
    const form = new URLSearchParams(await body(req));
    received.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, form });
    const json = (status: number, payload: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`) {
      return json(401, { code: 20003, message: 'Authenticate', status: 401 });
    }
    if (req.method === 'GET' && req.url === `/2010-04-01/Accounts/${SID}/Messages/MM1/Media/ME1`) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`)
      return json(404, { code: 20404, message: 'Not found', status: 404 });
    const to = form.get('To') ?? '';
    if (to === '+12125550999')
      return json(400, {
        code: 21211,
        message: "The 'To' number +12125550999 is not a valid phone number.",
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      });
    if (to === '+12125550500' && received.filter((r) => r.form.get('To') === to).length === 1)
      return json(503, { message: 'Service Unavailable', status: 503 });
    const sid = `SM${(++seq).toString(16).padStart(32, '0')}`;
    return json(201, {
      sid,
      account_sid: SID,
      to,
      from: form.get('From'),
      body: form.get('Body'),
      status: 'queued',
      num_segments: '1',
      num_media: String(form.getAll('MediaUrl').length),
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
      error_message: null,
      uri: `/2010-04-01/Accounts/${SID}/Messages/${sid}.json`,
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
}

let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
const open = async (token: string) => {
  const s = await connect(t.url, token);
  sockets.push(s);
  return s;
};

beforeAll(async () => {
  await startFake();
  t = await startChatApp({
    envOverrides: {
      CARRIER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_WEBHOOK_BASE_URL: BASE,
      TWILIO_API_BASE_URL: fakeUrl,
      TWILIO_MESSAGING_SERVICE_SID: MSID,
    },
    chats: { retryDelayMs: 20 },
    jobs: { pollMs: 50 },
  });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
  await new Promise((r) => fake?.close(r));
});

/** A webhook as Twilio sends it: form-encoded, signed over the full URL and the sorted parameters. */
function webhook(path: string, params: Record<string, string>, token = TOKEN) {
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(token, `${BASE}${path}`, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

/** Twilio's incoming-message webhook parameters (Messaging docs: "Twilio's request to your incoming message Webhook URL"). */
const incoming = (p: {
  sid: string;
  from: string;
  to: string;
  body: string;
  media?: { url: string; type: string }[];
}) => ({
  ToCountry: 'US',
  ToState: 'CA',
  SmsMessageSid: p.sid,
  NumMedia: String(p.media?.length ?? 0),
  ToCity: 'SAN FRANCISCO',
  FromZip: '10001',
  SmsSid: p.sid,
  FromState: 'NY',
  SmsStatus: 'received',
  FromCity: 'NEW YORK',
  Body: p.body,
  FromCountry: 'US',
  To: p.to,
  MessagingServiceSid: MSID,
  ToZip: '94105',
  NumSegments: '1',
  MessageSid: p.sid,
  AccountSid: SID,
  From: p.from,
  ApiVersion: '2010-04-01',
  ...Object.fromEntries(
    (p.media ?? []).flatMap((m, i) => [
      [`MediaUrl${i}`, m.url],
      [`MediaContentType${i}`, m.type],
    ]),
  ),
});

/** A status callback (Messaging docs: "Outbound Message Status in Status Callbacks"). */
const statusCallback = (sid: string, status: string, to: string, from: string, errorCode?: string) => ({
  MessageSid: sid,
  SmsSid: sid,
  AccountSid: SID,
  MessageStatus: status,
  SmsStatus: status,
  To: to,
  From: from,
  ApiVersion: '2010-04-01',
  ...(errorCode ? { ErrorCode: errorCode } : {}),
});

describe('X-Twilio-Signature', () => {
  it('matches the documented example vector', () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    );
  });
});

describe('outbound through the Messages REST call', () => {
  it('sends a text form-encoded with basic auth and a status callback; status webhooks update the message', async () => {
    const a = await makeUser(t, { number: '+14155550601', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    const p = textPayload(a.number, '12125550601', 'via Twilio');
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0 });
    const call = received.find((r) => r.form.get('Body') === 'via Twilio')!;
    expect(call.method).toBe('POST');
    expect(call.url).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(Object.fromEntries(call.form)).toEqual({
      To: '+12125550601',
      From: `+${a.number}`,
      Body: 'via Twilio',
      StatusCallback: `${BASE}/carrier/twilio/status`,
    });
    const [row] = await t.db.query<{ carrierId: string }>(
      `SELECT carrier_id AS "carrierId" FROM messages WHERE sms_id = $1`,
      [p.smsId],
    );
    expect(row!.carrierId).toMatch(/^SM[0-9a-f]{32}$/);

    const delivered = await webhook(
      '/carrier/twilio/status',
      statusCallback(row!.carrierId, 'delivered', '+12125550601', `+${a.number}`),
    );
    expect(delivered.statusCode).toBe(204);

    // a later failure report fails the message, tells the sender's sockets, and refunds
    const failed = await webhook(
      '/carrier/twilio/status',
      statusCallback(row!.carrierId, 'undelivered', '+12125550601', `+${a.number}`, '30003'),
    );
    expect(failed.statusCode).toBe(204);
    const update = await i.next((m) => m.smsId === p.smsId && m.status === 2);
    // the user reads the spec's text; Twilio's reason stays with the message for operators
    expect(update).toMatchObject({ retcode: 300036, retmsg: retmsg(300036, 'en') });
    const [stored] = await t.db.query<{ retmsg: string }>(`SELECT retmsg FROM messages WHERE sms_id = $1`, [
      p.smsId,
    ]);
    expect(stored?.retmsg).toContain('30003');
    expect((await money(t.db, a.accountId)).balance).toBe(10_000);
    // replayed: refunded once
    await webhook(
      '/carrier/twilio/status',
      statusCallback(row!.carrierId, 'undelivered', '+12125550601', `+${a.number}`, '30003'),
    );
    expect((await money(t.db, a.accountId)).bills.filter((b) => b.type === 8)).toHaveLength(1);
  });

  it("maps Twilio's refusals to retcodes and retries its outages", async () => {
    const a = await makeUser(t, { number: '+14155550611', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    const bad = textPayload(a.number, '12125550999', 'refused by Twilio');
    s.emit('sendMessage', bad);
    expect(await i.next((m) => m.smsId === bad.smsId)).toMatchObject({
      status: 2,
      retcode: 300031,
      retmsg: retmsg(300031, 'en'),
    });
    const busy = textPayload(a.number, '12125550500', 'after an outage');
    s.emit('sendMessage', busy);
    expect(await i.next((m) => m.smsId === busy.smsId)).toMatchObject({ status: 0 });
    expect(received.filter((r) => r.form.get('To') === '+12125550500')).toHaveLength(2);
    expect((await money(t.db, a.accountId)).balance).toBe(10_000 - 80);
  });

  it('hands an MMS picture to Twilio as a signed link only Twilio can use', async () => {
    const a = await makeUser(t, { number: '+14155550621', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    const p = {
      fromNumber: a.number,
      toNumber: '12125550621',
      fileBuffer: png,
      fileType: 'image/png' as const,
      fileName: 'p.png',
      msgType: 'mms' as const,
      smsId: newSmsId(),
      platform: 'numa' as const,
      languagecode: 'en' as const,
    };
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0, msgType: 'mms' });
    const call = received.find((r) => r.form.get('To') === '+12125550621')!;
    const link = call.form.get('MediaUrl')!;
    expect(link).toMatch(new RegExp(`^${BASE}/carrier/media/[\\w-]+\\?exp=\\d+&sig=[\\w-]+$`));
    const path = link.slice(BASE.length);
    const got = await t.app.inject({ method: 'GET', url: path });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(got.rawPayload, png)).toBe(0);
    const tampered = await t.app.inject({
      method: 'GET',
      url: path.replace(/sig=(.)/, (_, c: string) => `sig=${c === 'x' ? 'y' : 'x'}`),
    });
    expect(tampered.statusCode).toBe(403);
    const expired = await t.app.inject({ method: 'GET', url: path.replace(/exp=\d+/, 'exp=1000') });
    expect(expired.statusCode).toBe(403);
  });

  it('sends sign-in codes from the Messaging Service', async () => {
    const { signIn } = await import('./helpers');
    await signIn(t.app, { telCode: '1', phone: '4155550631' });
    const call = received.find((r) => r.form.get('To') === '+14155550631')!;
    expect(call.form.get('MessagingServiceSid')).toBe(MSID);
    expect(call.form.get('From')).toBeNull();
    expect(call.form.get('Body')).toMatch(/\d{4}/);
  });
});

describe('webhooks in', () => {
  it('stores an incoming SMS for the number holder and pushes it; a repeated webhook is stored once', async () => {
    const a = await makeUser(t, { number: '+14155550641' });
    const s = await open(a.token);
    const i = inbox(s);
    const params = incoming({
      sid: `SM${'a'.repeat(32)}`,
      from: '+12125550641',
      to: `+${a.number}`,
      body: 'Hello from Twilio',
    });
    const res = await webhook('/carrier/twilio/inbound', params);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(res.body).toContain('<Response></Response>');
    expect(await i.next((m) => m.text === 'Hello from Twilio')).toMatchObject({
      direction: 'in',
      fromNumber: '12125550641',
      toNumber: a.number,
      status: 0,
    });
    await webhook('/carrier/twilio/inbound', params);
    const rows = await t.db.query(`SELECT 1 FROM messages WHERE account_id = $1`, [a.accountId]);
    expect(rows).toHaveLength(1);
  });

  it('fetches the media of an incoming MMS into the media store', async () => {
    const a = await makeUser(t, { number: '+14155550651' });
    const params = incoming({
      sid: `MM${'b'.repeat(32)}`,
      from: '+12125550651',
      to: `+${a.number}`,
      body: '',
      media: [{ url: `${fakeUrl}/2010-04-01/Accounts/${SID}/Messages/MM1/Media/ME1`, type: 'image/png' }],
    });
    expect((await webhook('/carrier/twilio/inbound', params)).statusCode).toBe(200);
    const [m] = await t.db.query<{ media: string; type: string }>(
      `SELECT media, type FROM messages WHERE account_id = $1`,
      [a.accountId],
    );
    expect(m!.type).toBe('mms');
    const file = await t.app.inject({ method: 'GET', url: m!.media, headers: { 'auth-token': a.token } });
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, png)).toBe(0);
  });

  it('refuses unsigned, wrongly signed, tampered and other-account webhooks', async () => {
    const a = await makeUser(t, { number: '+14155550661' });
    const params = incoming({
      sid: `SM${'c'.repeat(32)}`,
      from: '+12125550661',
      to: `+${a.number}`,
      body: 'forged?',
    });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/carrier/twilio/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await webhook('/carrier/twilio/inbound', params, 'another-token-0000000000')).statusCode).toBe(
      403,
    );
    const signed = twilioSignature(TOKEN, `${BASE}/carrier/twilio/inbound`, params);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/carrier/twilio/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signed },
      payload: new URLSearchParams({ ...params, Body: 'changed' }).toString(),
    });
    expect(tampered.statusCode).toBe(403);
    expect(
      (await webhook('/carrier/twilio/inbound', { ...params, AccountSid: `AC${'9'.repeat(32)}` })).statusCode,
    ).toBe(400);
    expect(await t.db.query(`SELECT 1 FROM messages WHERE account_id = $1`, [a.accountId])).toHaveLength(0);
  });
});
