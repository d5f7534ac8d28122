import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retmsg } from '@numa/contract';
import { CarrierError } from '../src/providers/carrier/port';
import { TwilioCarrier, twilioBasicAuth, twilioSignature } from '../src/providers/carrier/twilio';
import { SimulatedNumberSupply } from '../src/providers/numbers';
import { SimulatedSpeechToText } from '../src/providers/stt/simulator';
import { simulatedRecording } from '../src/services/calls';
import { signIn } from './helpers';
import {
  connect,
  credit,
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
 * CARRIER=twilio and NUMBER_SUPPLY=twilio against a local fake of Twilio's REST API (a real HTTP
 * server: Messages, AvailablePhoneNumbers, IncomingPhoneNumbers, Recordings) answering with payloads
 * shaped as Twilio documents them, and signed webhooks built from Twilio's documented payloads
 * (incoming message, status callback, incoming call, call status, recording status).
 */
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
const TOKEN = 'f3c1b2a4d5e6f7a8b9c0d1e2f3a4b5c6';
const MSID = `MG${'fedcba9876543210'.repeat(2)}`;
const BASE = 'https://numa.example.com';
const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));
const API = `/2010-04-01/Accounts/${SID}`;

// numbers the fake offers: valid ones of the simulator's inventory, one without SMS, one not valid
const inventory = new SimulatedNumberSupply();
const sf = inventory.inventory({ code: 'US', type: 'local', areaCode: '415' }).map((n) => `+${n.full}`);
const tollFree = inventory.inventory({ code: 'TollFree', type: 'tollFree', areaCode: '800' })[0]!.full;
const gb = inventory.inventory({ code: 'GB', type: 'mobile' })[0]!.full;
/** Numbers someone else bought at Twilio in the meantime. */
const soldElsewhere = new Set<string>([sf[3]!]);
const owned = new Map<string, string>(); // +number → PN sid
const recording = simulatedRecording(8, 'Please call me back about the lease');

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
let pnSeq = 0;

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (s += c));
    req.on('end', () => resolve(s));
  });

/** An AvailablePhoneNumbers entry (Twilio docs: AvailablePhoneNumber Local / TollFree / Mobile resource). */
const available = (e164: string, country: string, caps = { voice: true, SMS: true, MMS: true }) => ({
  friendly_name: e164.startsWith('+1') ? `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}` : e164,
  phone_number: e164,
  lata: '722',
  locality: country === 'US' ? 'San Francisco' : null,
  rate_center: country === 'US' ? 'SNFC CNTRL' : null,
  latitude: '37.770000',
  longitude: '-122.420000',
  region: country === 'US' ? 'CA' : null,
  postal_code: '94105',
  iso_country: country,
  address_requirements: country === 'GB' ? 'any' : 'none',
  beta: false,
  capabilities: caps,
});

/** A date as Twilio writes it in its resources (RFC 2822, e.g. 'Fri, 04 Sep 2015 22:54:39 +0000'). */
const rfc2822 = (d: Date) => d.toUTCString().replace('GMT', '+0000');

/**
 * A Message resource as Twilio documents it (the create answer and the list's entries; recorded from
 * Twilio's API reference and its helper libraries' fixtures).
 */
function messageResource(o: {
  sid: string;
  from: string;
  to: string;
  body: string;
  status: string;
  created: Date;
  errorCode?: number | null;
  numMedia?: number;
}) {
  const later = new Date(o.created.getTime() + 2_000);
  return {
    account_sid: SID,
    api_version: '2010-04-01',
    body: o.body,
    date_created: rfc2822(o.created),
    // a message still queued has not been sent yet
    date_sent: o.status === 'queued' || o.status === 'accepted' ? null : rfc2822(later),
    date_updated: rfc2822(o.status === 'queued' ? o.created : later),
    direction: 'outbound-api',
    error_code: o.errorCode ?? null,
    error_message: null,
    from: o.from,
    messaging_service_sid: null,
    num_media: String(o.numMedia ?? 0),
    num_segments: '1',
    price: o.status === 'queued' ? null : '-0.00790',
    price_unit: 'USD',
    sid: o.sid,
    status: o.status,
    subresource_uris: {
      media: `${API}/Messages/${o.sid}/Media.json`,
      feedback: `${API}/Messages/${o.sid}/Feedback.json`,
    },
    to: o.to,
    uri: `${API}/Messages/${o.sid}.json`,
  };
}
type TwilioMessage = ReturnType<typeof messageResource>;
/** The account's messages at Twilio: what the fake created, and recorded ones a test puts there. */
const twilioMessages: TwilioMessage[] = [];

/**
 * What Twilio's API does for the calls we make: create a Message, list Messages (filtered by From and
 * To, newest first, paged), serve an inbound message's media;
 * search, buy, list and release numbers; serve a recording.
 */
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
    const url = new URL(req.url!, 'http://fake');
    const q = url.searchParams;
    const list = (path: string, key: string, items: object[]) =>
      json(200, {
        [key]: items,
        end: Math.max(0, items.length - 1),
        first_page_uri: `${path}?${q}&Page=0`,
        next_page_uri: null,
        page: 0,
        page_size: Number(q.get('PageSize') ?? 50),
        previous_page_uri: null,
        start: 0,
        uri: `${path}?${q}`,
      });
    const search = url.pathname.match(/\/AvailablePhoneNumbers\/(\w+)\/(Local|TollFree|Mobile)\.json$/);
    if (req.method === 'GET' && search) {
      const [, country, kind] = search;
      if (q.get('AreaCode') === '999') return json(503, { message: 'Service Unavailable', status: 503 });
      let items: ReturnType<typeof available>[] = [];
      if (country === 'US' && kind === 'Local' && q.get('AreaCode') === '415')
        items = [
          ...sf.slice(0, 6).map((n) => available(n, 'US')),
          available(sf[6]!, 'US', { voice: true, SMS: false, MMS: false }),
          available('+14150000000', 'US'),
        ];
      else if (country === 'US' && kind === 'TollFree' && q.get('AreaCode') === '800')
        items = [available(`+${tollFree}`, 'US')];
      else if (country === 'GB' && kind === 'Mobile') items = [available(`+${gb}`, 'GB')];
      const contains = q.get('Contains');
      if (contains) items = items.filter((i) => i.phone_number.startsWith(contains));
      items = items.filter((i) => !owned.has(i.phone_number) && !soldElsewhere.has(i.phone_number));
      return list(url.pathname, 'available_phone_numbers', items);
    }
    if (url.pathname === `${API}/IncomingPhoneNumbers.json` && req.method === 'POST') {
      const n = form.get('PhoneNumber')!;
      if (owned.has(n) || soldElsewhere.has(n))
        return json(400, {
          code: 21422,
          message: `Phone number ${n} is not available`,
          more_info: 'https://www.twilio.com/docs/errors/21422',
          status: 400,
        });
      const sid = `PN${(++pnSeq).toString(16).padStart(32, '0')}`;
      owned.set(n, sid);
      return json(201, {
        account_sid: SID,
        address_requirements: 'none',
        api_version: '2010-04-01',
        beta: false,
        capabilities: { voice: true, sms: true, mms: true, fax: false },
        date_created: 'Mon, 23 Nov 2026 07:00:00 +0000',
        friendly_name: n,
        phone_number: n,
        sid,
        sms_method: form.get('SmsMethod'),
        sms_url: form.get('SmsUrl'),
        status_callback: form.get('StatusCallback'),
        status_callback_method: form.get('StatusCallbackMethod'),
        voice_method: form.get('VoiceMethod'),
        voice_url: form.get('VoiceUrl'),
        status: 'in-use',
        uri: `${API}/IncomingPhoneNumbers/${sid}.json`,
      });
    }
    if (url.pathname === `${API}/IncomingPhoneNumbers.json` && req.method === 'GET') {
      const n = q.get('PhoneNumber');
      const items = [...owned]
        .filter(([num]) => !n || num === n)
        .map(([num, sid]) => ({ sid, account_sid: SID, phone_number: num, friendly_name: num }));
      return list(url.pathname, 'incoming_phone_numbers', items);
    }
    const del = url.pathname.match(/\/IncomingPhoneNumbers\/(PN\w+)\.json$/);
    if (del && req.method === 'DELETE') {
      const hit = [...owned].find(([, sid]) => sid === del[1]);
      if (!hit)
        return json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      owned.delete(hit[0]);
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === `${API}/Recordings/RE${'1'.repeat(32)}.wav`) {
      res.writeHead(200, { 'content-type': 'audio/x-wav' });
      return res.end(recording);
    }
    if (req.method === 'GET' && url.pathname === `${API}/Messages.json`) {
      // Twilio's list: filtered by From and To, newest first, in pages of PageSize with a next_page_uri
      const size = Math.min(1000, Number(q.get('PageSize') ?? 50));
      const page = Number(q.get('Page') ?? 0);
      const all = twilioMessages
        .filter((m) => (!q.get('From') || m.from === q.get('From')) && (!q.get('To') || m.to === q.get('To')))
        .sort((x, y) => Date.parse(y.date_created) - Date.parse(x.date_created));
      const items = all.slice(page * size, (page + 1) * size);
      const at = (n: number) => {
        const u = new URLSearchParams(q);
        u.set('PageSize', String(size));
        u.set('Page', String(n));
        if (n > 0) u.set('PageToken', `PASM${String(n).padStart(32, '0')}`);
        else u.delete('PageToken');
        return `${API}/Messages.json?${u}`;
      };
      return json(200, {
        end: page * size + Math.max(0, items.length - 1),
        first_page_uri: at(0),
        messages: items,
        next_page_uri: (page + 1) * size < all.length ? at(page + 1) : null,
        page,
        page_size: size,
        previous_page_uri: page > 0 ? at(page - 1) : null,
        start: page * size,
        uri: at(page),
      });
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
    const created = messageResource({
      sid,
      from: form.get('From') ?? MSID,
      to,
      body: form.get('Body') ?? '',
      status: 'queued',
      created: new Date(),
      numMedia: form.getAll('MediaUrl').length,
    });
    twilioMessages.push(created);
    // accepted, but the answer is lost on the way back (a gateway timeout): the message exists at Twilio
    if (to === '+12125550600' && received.filter((r) => r.form.get('To') === to).length === 1)
      return json(504, { message: 'Gateway Timeout', status: 504 });
    return json(201, created);
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

let renterSeq = 0;

/** A signed-in account with a verified billing profile and phone, and a balance. */
async function renter(balance: number) {
  const n = renterSeq++;
  const email = `twnum${process.pid}x${n}@example.com`;
  const c = await signIn(t.app, { email });
  const [{ id }] = await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [email]);
  const phone = `20255${String(60000 + n).slice(-5)}`;
  await t.db.query(`UPDATE accounts SET tel_code = '1', phone = $2 WHERE id = $1`, [id, phone]);
  await t.db.query(
    `INSERT INTO billing_profiles (account_id, first_name, last_name, address, city, province, postal_code, country, status)
     VALUES ($1, 'Ada', 'Lovelace', '1 Main St', 'Austin', 'TX', '73301', 'US', 2)`,
    [id],
  );
  if (balance) await t.db.tx((tx) => credit(tx, id, balance));
  return { c, id, phone: `1${phone}` };
}

async function planId(c: Awaited<ReturnType<typeof renter>>['c'], code: string, type: string, name: string) {
  const res = await c.get('/web/getPlanList', { code, type });
  return (res.body.data.planList as { planId: number; planName: string; planRentPeriod: string }[]).find(
    (x) => x.planName === name && x.planRentPeriod === 'month',
  )!.planId;
}

/** The ledger invariant: bills sum to the balance. */
async function balanceOf(id: number) {
  const [r] = await t.db.query<{ sum: number; balance: number }>(
    `SELECT COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = $1), 0)::bigint AS sum,
            (SELECT balance FROM accounts WHERE id = $1) AS balance`,
    [id],
  );
  expect(Number(r!.sum)).toBe(Number(r!.balance));
  return Number(r!.balance);
}

/** The voice webhook's parameters (Voice docs: "Twilio's request to your application"). */
const voiceParams = (sid: string, from: string, to: string) => ({
  AccountSid: SID,
  ApiVersion: '2010-04-01',
  CallSid: sid,
  CallStatus: 'ringing',
  Called: to,
  CalledCity: 'SAN FRANCISCO',
  CalledCountry: 'US',
  CalledState: 'CA',
  Caller: from,
  CallerCountry: 'US',
  Direction: 'inbound',
  From: from,
  FromCountry: 'US',
  To: to,
  ToCountry: 'US',
});

/** A call status callback (Voice docs: "StatusCallback" of an incoming call, the completed event). */
const statusParams = (sid: string, from: string, to: string, status: string, seconds: number) => ({
  ...voiceParams(sid, from, to),
  CallStatus: status,
  CallDuration: String(seconds),
  Duration: String(Math.ceil(seconds / 60)),
  CallbackSource: 'call-progress-events',
  SequenceNumber: '0',
  Timestamp: 'Mon, 02 Mar 2026 10:05:00 +0000',
});

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
      NUMBER_SUPPLY: 'twilio',
    },
    stt: new SimulatedSpeechToText(),
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
    // the second try asked Twilio first (its list for this sender and recipient): it had nothing, so it sent
    const calls = received.filter(
      (r) => r.url.includes('12125550500'.slice(1)) || r.form.get('To') === '+12125550500',
    );
    expect(calls.map((r) => r.method)).toEqual(['POST', 'GET', 'POST']);
    expect(new URL(calls[1]!.url, 'http://x').searchParams.get('From')).toBe(`+${a.number}`);
    expect((await money(t.db, a.accountId)).balance).toBe(10_000 - 80);
  });

  it('a hand-over Twilio accepted but whose answer was lost is found in its list, not sent again', async () => {
    const a = await makeUser(t, { number: '+14155550616', balance: 1 });
    const s = await open(a.token);
    const i = inbox(s);
    const p = textPayload(a.number, '12125550600', 'accepted, answer lost');
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0 });
    const posts = received.filter((r) => r.method === 'POST' && r.form.get('To') === '+12125550600');
    expect(posts).toHaveLength(1);
    const atTwilio = twilioMessages.filter((m) => m.to === '+12125550600');
    expect(atTwilio).toHaveLength(1);
    const [row] = await t.db.query<{ carrierId: string }>(
      `SELECT carrier_id AS "carrierId" FROM messages WHERE sms_id = $1`,
      [p.smsId],
    );
    expect(row!.carrierId).toBe(atTwilio[0]!.sid);
    // charged once, nothing refunded; Twilio's later status reports find the message
    const { balance, bills } = await money(t.db, a.accountId);
    expect(balance).toBe(10_000 - 80);
    expect(bills.filter((b) => b.type === 8)).toHaveLength(0);
    await balanceOf(a.accountId);
    const report = await webhook(
      '/carrier/twilio/status',
      statusCallback(row!.carrierId, 'undelivered', '+12125550600', `+${a.number}`, '30003'),
    );
    expect(report.statusCode).toBe(204);
    expect(await i.next((m) => m.smsId === p.smsId && m.status === 2)).toMatchObject({ retcode: 300036 });
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

describe("lookup of a hand-over of unknown outcome (Twilio's Messages list)", () => {
  const from = '+14155550690';
  const to = '+12125550690';
  const carrier = () =>
    new TwilioCarrier({ accountSid: SID, authToken: TOKEN, webhookBaseUrl: BASE, apiBaseUrl: fakeUrl });
  const sent = Date.now() - 600_000;
  const at = (msAgo: number) => new Date(Date.now() - msAgo);
  const lookup = (text: string) =>
    carrier().lookupMessage({
      from: from.slice(1),
      to: to.slice(1),
      text,
      media: [],
      idempotencyKey: 'msg-1',
      since: new Date(sent),
    });
  let n = 0;
  const put = (o: Partial<Parameters<typeof messageResource>[0]> & { body: string; created: Date }) => {
    const m = messageResource({
      sid: `SM${(0xabc000 + ++n).toString(16).padStart(32, '0')}`,
      from,
      to,
      status: 'delivered',
      ...o,
    });
    twilioMessages.push(m);
    return m;
  };

  it('pages through the conversation until it is older than the window; matches the text, created since the message', async () => {
    // 250 newer messages of the conversation, then ours (and its failed twin), then a day of older ones
    for (let k = 0; k < 250; k++) put({ body: `other ${k}`, created: at(1_000 * (k + 1)) });
    const mine = put({ body: 'see you at 5', created: at(300_000), status: 'sent' });
    const failed = put({ body: 'see you at 5', created: at(290_000), status: 'failed', errorCode: 21610 });
    put({ body: 'see you at 5', created: at(2 * 86_400_000) });
    for (let k = 0; k < 400; k++) put({ body: `older ${k}`, created: at(86_400_000 + 1_000 * k) });
    const before = received.length;
    const found = await lookup('see you at 5');
    expect(found).toEqual([
      { id: mine.sid, at: new Date(Date.parse(mine.date_created)) },
      {
        id: failed.sid,
        at: new Date(Date.parse(failed.date_created)),
        failed: { reason: 'Twilio: failed (error 21610)', errorCode: '21610', retcode: 300031 },
      },
    ]);
    const gets = received.slice(before);
    // pages of 200: the third holds nothing in the window, so the fourth is not read
    expect(gets.map((r) => new URL(r.url, 'http://x').searchParams.get('Page') ?? '0')).toEqual([
      '0',
      '1',
      '2',
    ]);
    expect(gets.every((r) => r.method === 'GET' && r.auth === twilioBasicAuth(SID, TOKEN))).toBe(true);
    const first = new URL(gets[0]!.url, 'http://x');
    expect(first.pathname).toBe(`${API}/Messages.json`);
    expect(Object.fromEntries(first.searchParams)).toEqual({ From: from, To: to, PageSize: '200' });
    // a text Twilio does not have in the window: nothing (the message may be handed over)
    expect(await lookup('not sent')).toEqual([]);
  });

  it('cannot tell when Twilio does not answer: a transient error, nothing decided', async () => {
    const down = new TwilioCarrier({
      accountSid: SID,
      authToken: 'wrong',
      webhookBaseUrl: BASE,
      apiBaseUrl: fakeUrl,
    });
    const err = await down
      .lookupMessage({
        from: '14155550690',
        to: '12125550690',
        text: 'x',
        media: [],
        idempotencyKey: 'msg-1',
        since: new Date(),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierError);
    expect((err as CarrierError).permanent).toBe(false);
    const gone = new TwilioCarrier({
      accountSid: SID,
      authToken: TOKEN,
      webhookBaseUrl: BASE,
      apiBaseUrl: 'http://127.0.0.1:1',
    });
    const unreachable = await gone
      .lookupMessage({
        from: '14155550690',
        to: '12125550690',
        text: 'x',
        media: [],
        idempotencyKey: 'msg-1',
        since: new Date(),
      })
      .catch((e: unknown) => e);
    expect((unreachable as CarrierError).permanent).toBe(false);
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

describe('Twilio number supply', () => {
  it('searches by area code or region, buys with our webhooks set, refuses a number sold elsewhere, releases a reclaimed one', async () => {
    const u = await renter(20);
    const search = (p: Record<string, string>) => u.c.get('/web/getVirtualPhoneByAreaCode', p);
    const local = await search({ code: 'US', type: 'local', telCode: '1', areaCode: '415' });
    // the number without SMS and the number our phone rules refuse are left out; the one sold elsewhere is gone
    expect(local.body.data.numbers).toEqual(
      sf
        .slice(0, 6)
        .filter((n) => !soldElsewhere.has(n))
        .map((n) => n.slice(2)),
    );
    const call = received.find((r) => r.url.includes('/AvailablePhoneNumbers/US/Local.json'))!;
    const q = new URL(call.url, 'http://x').searchParams;
    expect(Object.fromEntries(q)).toEqual({
      SmsEnabled: 'true',
      VoiceEnabled: 'true',
      PageSize: '50',
      AreaCode: '415',
    });
    expect(
      (await search({ code: 'TollFree', type: 'tollFree', telCode: '1', areaCode: '800' })).body.data.numbers,
    ).toEqual([tollFree.slice(1)]);
    expect(received.at(-1)!.url).toMatch(/\/AvailablePhoneNumbers\/US\/TollFree\.json\?.*AreaCode=800/);
    expect((await search({ code: 'GB', type: 'mobile', telCode: '44' })).body.data.numbers).toEqual([
      gb.slice(2),
    ]);
    expect(received.at(-1)!.url).toMatch(/\/AvailablePhoneNumbers\/GB\/Mobile\.json\?/);
    expect(received.at(-1)!.url).not.toContain('AreaCode');
    // Twilio out of service: the step's error state, not a 500
    const down = await search({ code: 'US', type: 'local', telCode: '1', areaCode: '999' });
    expect(down.body.retcode).toBe(300002);

    const payg = await planId(u.c, 'US', 'local', 'Pay As You Go');
    const before = await balanceOf(u.id);
    // shown a moment ago, sold elsewhere since: Twilio refuses the purchase; nothing is charged
    const sold = await u.c.post('/web/subVirtualPhone', {
      planId: payg,
      telCode: '1',
      phone: sf[3]!.slice(2),
      code: 'US',
      type: 'local',
    });
    expect(sold.body.retcode).toBe(500000);
    expect(await balanceOf(u.id)).toBe(before);

    const phone = local.body.data.numbers[0] as string;
    const ok = await u.c.post('/web/subVirtualPhone', {
      planId: payg,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(ok.body.retcode).toBe(0);
    const buy = received.filter((r) => r.method === 'POST' && r.url.endsWith('/IncomingPhoneNumbers.json'));
    expect(Object.fromEntries(buy.at(-1)!.form)).toEqual({
      PhoneNumber: `+1${phone}`,
      SmsUrl: `${BASE}/carrier/twilio/inbound`,
      SmsMethod: 'POST',
      VoiceUrl: `${BASE}/carrier/twilio/voice`,
      VoiceMethod: 'POST',
      StatusCallback: `${BASE}/carrier/twilio/call-status`,
      StatusCallbackMethod: 'POST',
    });
    expect(owned.has(`+1${phone}`)).toBe(true);
    expect(await balanceOf(u.id)).toBe(before - 40_900);
    // a repeated submit: Twilio says "not available", it is ours already: the first result, one charge
    const again = await u.c.post('/web/subVirtualPhone', {
      planId: payg,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(again.body.data).toEqual(ok.body.data);
    expect(await balanceOf(u.id)).toBe(before - 40_900);

    // reclaimed (the renewal job's end of a number, here the operator's): released at Twilio
    expect(await t.app.deps.subscriptions.reclaim(`1${phone}`)).toEqual({ accountId: u.id });
    expect(owned.has(`+1${phone}`)).toBe(false);
    expect(received.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data.virtualPhones).toEqual([]);
    // released twice (a retried job): nothing more to delete
    await t.app.deps.numberSupply.release({ telCode: '1', phone, full: `1${phone}` });
    expect(received.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});

describe('Twilio incoming calls', () => {
  it('answers with TwiML by the switches, records each call once from its status callback, and puts a voicemail with its transcript in the chat', async () => {
    const u = await renter(20);
    const unlimited = await planId(u.c, 'US', 'local', 'Unlimited');
    const phone = (
      await u.c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'US',
        type: 'local',
        telCode: '1',
        areaCode: '415',
      })
    ).body.data.numbers[0] as string;
    expect(
      (
        await u.c.post('/web/subVirtualPhone', {
          planId: unlimited,
          telCode: '1',
          phone,
          code: 'US',
          type: 'local',
        })
      ).body.retcode,
    ).toBe(0);
    const ours = `+1${phone}`;
    const caller = '+12125550188';
    const xmlOf = (r: { headers: Record<string, unknown>; body: string }) => {
      expect(r.headers['content-type']).toMatch(/^text\/xml/);
      return r.body;
    };

    // unsigned or forged: refused before anything is read
    const params = voiceParams(`CA${'0'.repeat(31)}1`, caller, ours);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/carrier/twilio/voice',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await webhook('/carrier/twilio/voice', params, 'another-token-0000000000')).statusCode).toBe(403);

    // no switch on: refused; a number nobody holds: refused
    expect(xmlOf(await webhook('/carrier/twilio/voice', params))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>',
    );
    expect(
      xmlOf(
        await webhook('/carrier/twilio/voice', voiceParams(`CA${'9'.repeat(32)}`, caller, '+14155550000')),
      ),
    ).toContain('<Reject');

    // forwarding: dial the account's verified phone, answered only when it picks up
    expect((await u.c.post('/web/setForward', { forward: 1 })).body.retcode).toBe(0);
    const fwdSid = `CA${'a'.repeat(32)}`;
    expect(xmlOf(await webhook('/carrier/twilio/voice', voiceParams(fwdSid, caller, ours)))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Dial answerOnBridge="true" timeout="25" callerId="+12125550188">' +
        `<Number>+${u.phone}</Number></Dial></Response>`,
    );
    const before = await balanceOf(u.id);
    const done = statusParams(fwdSid, caller, ours, 'completed', 75);
    const [s1, s2] = await Promise.all([
      webhook('/carrier/twilio/call-status', done),
      webhook('/carrier/twilio/call-status', done),
    ]);
    expect([s1.statusCode, s2.statusCode]).toEqual([204, 204]);
    await webhook('/carrier/twilio/call-status', done); // a retry later: still once
    // in progress reports write nothing; a forwarded call nobody picked up is free
    await webhook(
      '/carrier/twilio/call-status',
      statusParams(`CA${'b'.repeat(32)}`, caller, ours, 'in-progress', 0),
    );
    await webhook(
      '/carrier/twilio/call-status',
      statusParams(`CA${'c'.repeat(32)}`, caller, ours, 'no-answer', 0),
    );

    // voicemail: a greeting, then Record with its recording callback; the action hangs up
    expect((await u.c.post('/web/setVoicemail', { voicemail: 1 })).body.retcode).toBe(0);
    const vmSid = `CA${'d'.repeat(32)}`;
    const twiml = xmlOf(await webhook('/carrier/twilio/voice', voiceParams(vmSid, caller, ours)));
    expect(twiml).toContain(
      '<Say language="en-US">The person you are calling cannot answer. Please leave a message after the tone.</Say>',
    );
    expect(twiml).toContain(`action="${BASE}/carrier/twilio/voice?step=recorded"`);
    const callback = twiml.match(/recordingStatusCallback="([^"]+)"/)![1]!.replaceAll('&amp;', '&');
    expect(callback).toBe(
      `${BASE}/carrier/twilio/recording?from=%2B12125550188&to=${encodeURIComponent(ours)}`,
    );
    const hangup = await webhook('/carrier/twilio/voice?step=recorded', {
      ...voiceParams(vmSid, caller, ours),
      CallStatus: 'completed',
      RecordingUrl: `${fakeUrl}${API}/Recordings/RE${'1'.repeat(32)}`,
      RecordingDuration: '8',
      Digits: 'hangup',
    });
    expect(xmlOf(hangup)).toContain('<Hangup/>');
    // the recording callback (Voice docs: recordingStatusCallback parameters)
    const rec = {
      AccountSid: SID,
      CallSid: vmSid,
      RecordingSid: `RE${'1'.repeat(32)}`,
      RecordingUrl: `${fakeUrl}${API}/Recordings/RE${'1'.repeat(32)}`,
      RecordingStatus: 'completed',
      RecordingDuration: '8',
      RecordingChannels: '1',
      RecordingStartTime: new Date().toUTCString().replace('GMT', '+0000'),
      RecordingSource: 'RecordVerb',
    };
    const recPath = callback.slice(BASE.length);
    expect((await webhook(recPath, rec)).statusCode).toBe(204);
    expect((await webhook(recPath, rec)).statusCode).toBe(204); // retried: one message
    // our credentials never go elsewhere; a changed query breaks the signature
    expect((await webhook(recPath, { ...rec, RecordingUrl: 'https://evil.example/rec' })).statusCode).toBe(
      400,
    );
    const forged = await t.app.inject({
      method: 'POST',
      url: recPath.replace('2125550188', '2125550189'),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(TOKEN, `${BASE}${recPath}`, rec),
      },
      payload: new URLSearchParams(rec).toString(),
    });
    expect(forged.statusCode).toBe(403);
    await webhook('/carrier/twilio/call-status', statusParams(vmSid, caller, ours, 'completed', 20));

    const dialog = (
      await u.c.get('/web/getDialogList', { ownFullNumber: ours.slice(1), otherFullNumber: caller.slice(1) })
    ).body.data.dialogList as { type: string; media: string; stt?: string; sttStatus?: number }[];
    const voice = dialog.filter((m) => m.type === 'voicemail');
    expect(voice).toHaveLength(1);
    expect(voice[0]).toMatchObject({ stt: 'Please call me back about the lease', sttStatus: 2 });
    const file = await t.app.inject({
      method: 'GET',
      url: voice[0]!.media,
      headers: { 'auth-token': u.c.token! },
    });
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, recording)).toBe(0);

    // the call records: forwarded 75 s (2 minutes), missed forward (free), voicemail 20 s (1 minute)
    const calls = (await u.c.get('/web/getCallList', { date: new Date().toISOString().slice(0, 7) })).body
      .data;
    expect(
      calls.callList.map((x: { type: string; duration: number; billingDuration: number; charge: number }) => [
        x.type,
        x.duration,
        x.billingDuration,
        x.charge,
      ]),
    ).toEqual([
      ['voicemail', 20, 60, -0.004],
      ['forward', 0, 0, 0],
      ['forward', 75, 120, -0.008],
    ]);
    expect(await balanceOf(u.id)).toBe(before - 120);
    const [{ n }] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger WHERE account_id = $1 AND type = 4`,
      [u.id],
    );
    expect(n).toBe(2);
  });
});
