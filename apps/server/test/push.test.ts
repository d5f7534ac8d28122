import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// an implementation of RFC 8188 of its own (not our code): what it decrypts, a browser would
import ece from 'http_ece';
import { PushPayload } from '@numa/contract/push';
import type { PushEvent, PushOutcome } from '../src/services/push';
import { createPushDevices } from '../src/services/push/devices';
import { pushRepo } from '../src/repositories/push';
import { connect, makeUser, startChatApp, until, type ListeningApp } from './chat-support';
import { openTestDb, rawQuery } from './helpers';

/**
 * Web Push (issue 23): a push service on loopback stands in for the browser's. The server sends it
 * an encrypted push (RFC 8291, aes128gcm, VAPID-signed) for an incoming SMS and for a verification
 * code; the test decrypts each with the subscription's own keys and reads title, body, language
 * and the page it opens. A 410 answer deletes the subscription; a conversation a page of the
 * account shows is not pushed.
 */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function pushService() {
  const got: Received[] = [];
  const status = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      got.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = status.get(path) ?? 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    status,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    decrypt: (body: Buffer) =>
      PushPayload.parse(
        JSON.parse(
          ece
            .decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth.toString('base64url') })
            .toString('utf8'),
        ),
      ),
  };
}

let t: ListeningApp;
let ps: Awaited<ReturnType<typeof pushService>>;
const outcomes: { subscriptionId: number; event: PushEvent; outcome: PushOutcome }[] = [];

beforeAll(async () => {
  ps = await pushService();
  t = await startChatApp();
  t.app.deps.push.onOutcome((o) => outcomes.push(o));
});
afterAll(async () => {
  await t?.close();
  await ps?.close();
});

type User = Awaited<ReturnType<typeof makeUser>>;
async function subscribe(
  u: User,
  path: string,
  keys: { p256dh: string; auth: string },
  lang: 'en' | 'zh_cn',
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/web/subscribePush',
    query: { languagecode: lang, t: '1', webVersion: 'test' },
    headers: {
      host: 'localhost',
      'auth-token': u.token,
      'user-agent':
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    },
    payload: { platform: 'numa', endpoint: ps.url(path), keys, previews: true },
  });
  const body = res.json();
  expect(body.retcode, JSON.stringify(body)).toBe(0);
  return body.data.device as { id: string; device: string; lang: string; current: boolean };
}

describe('web push', () => {
  let a: User;
  const keysA = browserKeys();
  const keysZh = browserKeys();

  beforeAll(async () => {
    a = await makeUser(t, { number: '+14155550901', balance: 5 });
  });

  it('gives one VAPID public key and lists the devices, this one marked', async () => {
    const first = await a.c.post('/web/getPushSettings', {});
    expect(first.body.retcode).toBe(0);
    expect(first.body.data.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(first.body.data.devices).toEqual([]);
    const device = await subscribe(a, '/sub/en', keysA.keys, 'en');
    expect(device).toMatchObject({ device: 'Chrome · Android OS', lang: 'en', current: true });
    const again = await a.c.post('/web/getPushSettings', { endpoint: ps.url('/sub/en') });
    // the key is kept (made once, in the database)
    expect(again.body.data.publicKey).toBe(first.body.data.publicKey);
    expect(again.body.data.devices).toMatchObject([{ id: device.id, current: true, previews: true }]);
    // bad key material is refused by the contract
    const bad = await a.c.post('/web/subscribePush', {
      endpoint: ps.url('/x'),
      keys: { p256dh: 'x', auth: 'y' },
    });
    expect(bad.body.retcode).toBe(100001);
  });

  it('an incoming SMS reaches each device encrypted, in its language, with the contact name and the chat it opens', async () => {
    await subscribe(a, '/sub/zh', keysZh.keys, 'zh_cn');
    // the sender is a contact of the account
    const contact = await a.c.post('/web/createOrUpdateCloudAddressBook', {
      addressBook: JSON.stringify({ name: 'Ada', phoneList: [{ phone: '12025550111', telCode: '1' }] }),
    });
    expect(contact.body.retcode).toBe(0);
    const before = ps.got.length;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+12025550111', to: '14155550901', text: 'Are we still on for 6?' },
    });
    expect(sent.statusCode).toBe(200);
    const en = await until(async () => ps.got.slice(before).find((r) => r.path === '/sub/en'));
    const zh = await until(async () => ps.got.slice(before).find((r) => r.path === '/sub/zh'));
    // Web Push as RFC 8291/8292 say: aes128gcm, a VAPID JWT, a TTL
    expect(en.headers['content-encoding']).toBe('aes128gcm');
    expect(String(en.headers.authorization)).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    expect(Number(en.headers.ttl)).toBeGreaterThan(0);
    // nothing readable on the wire
    expect(en.body.toString('latin1')).not.toContain('Are we still');
    expect(keysA.decrypt(en.body)).toEqual({
      kind: 'message',
      title: 'Ada',
      body: 'Are we still on for 6?',
      lang: 'en',
      url: '/chats?chat=14155550901-12025550111',
      tag: '14155550901-12025550111',
    });
    expect(keysZh.decrypt(zh.body)).toMatchObject({
      title: 'Ada',
      lang: 'zh',
      url: '/chats?chat=14155550901-12025550111',
    });
    // a key that is not the subscription's cannot read it
    expect(() => browserKeys().decrypt(en.body)).toThrow();
  });

  it('a device with previews off gets no text; a sender without a contact shows as the number', async () => {
    const zhId = (
      await a.c.post('/web/getPushSettings', { endpoint: ps.url('/sub/zh') })
    ).body.data.devices.find((d: { current: boolean }) => d.current).id as string;
    expect((await a.c.post('/web/updatePushDevice', { id: zhId, previews: false })).body.retcode).toBe(0);
    const before = ps.got.length;
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+12025550122', to: '14155550901', text: 'secret stuff' },
    });
    const zh = await until(async () => ps.got.slice(before).find((r) => r.path === '/sub/zh'));
    expect(keysZh.decrypt(zh.body)).toMatchObject({ title: '+1 202 555 0122', body: '新消息', lang: 'zh' });
    expect((await a.c.post('/web/updatePushDevice', { id: zhId, previews: true })).body.retcode).toBe(0);
  });

  it('is not sent for a conversation a page of the account shows', async () => {
    const socket = await connect(t.url, a.token);
    try {
      socket.emit('viewing', { chat: '14155550901-12025550133' });
      await until(
        async () =>
          (await t.app.deps.realtime.isViewing(a.accountId, '14155550901-12025550133')) || undefined,
      );
      const mark = outcomes.length;
      await t.app.inject({
        method: 'POST',
        url: '/dev/inbound',
        payload: { from: '+12025550133', to: '14155550901', text: 'you are looking at me' },
      });
      const seen = await until(async () => {
        const mine = outcomes
          .slice(mark)
          .filter((o) => o.event.kind === 'message' && o.event.other === '12025550133');
        return mine.length === 2 ? mine : undefined;
      });
      expect(seen.map((o) => o.outcome)).toEqual(['suppressed', 'suppressed']);
      // the page hidden (chat null): pushed again
      socket.emit('viewing', { chat: null });
      await until(async () => !(await t.app.deps.realtime.isViewing(a.accountId, '14155550901-12025550133')));
      const before = ps.got.length;
      await t.app.inject({
        method: 'POST',
        url: '/dev/inbound',
        payload: { from: '+12025550133', to: '14155550901', text: 'now you are not' },
      });
      const en = await until(async () => ps.got.slice(before).find((r) => r.path === '/sub/en'));
      expect(keysA.decrypt(en.body).body).toBe('now you are not');
    } finally {
      socket.close();
    }
  });

  it('a verification code arrives with the code in its text and opens the codes tab', async () => {
    const key = (await a.c.post('/web/createApiKey', { name: 'codes', scopes: ['codes'] })).body.data.secret;
    const lock = await t.app.inject({
      method: 'POST',
      url: '/api/v1/codes/locks',
      headers: { host: 'localhost', authorization: `Bearer ${key}` },
      payload: { app: 'telegram', country: 'US' },
    });
    expect(lock.statusCode).toBe(201);
    const number = lock.json().number as string;
    const before = ps.got.length;
    await t.app.inject({
      method: 'POST',
      url: '/dev/code-sms',
      payload: { number, app: 'telegram', text: 'Telegram code: 48213' },
    });
    const en = await until(async () => ps.got.slice(before).find((r) => r.path === '/sub/en'));
    const zh = await until(async () => ps.got.slice(before).find((r) => r.path === '/sub/zh'));
    expect(keysA.decrypt(en.body)).toMatchObject({
      kind: 'code',
      title: 'Telegram code',
      body: 'Your code: 48213\nTelegram code: 48213',
      lang: 'en',
      url: '/verification',
    });
    expect(keysZh.decrypt(zh.body)).toMatchObject({
      kind: 'code',
      body: expect.stringContaining('您的验证码：48213'),
      lang: 'zh',
    });
  });

  it('a subscription the push service answers 410 for is deleted', async () => {
    ps.status.set('/sub/zh', 410);
    const mark = outcomes.length;
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+12025550144', to: '14155550901', text: 'anyone there?' },
    });
    await until(async () => outcomes.slice(mark).find((o) => o.outcome === 'gone'));
    const devices = (await a.c.post('/web/getPushSettings', {})).body.data.devices as { lang: string }[];
    expect(devices.map((d) => d.lang)).toEqual(['en']);
  });

  it('turning a device off deletes it; another account cannot touch it', async () => {
    const b = await makeUser(t, { number: '+14155550902', balance: 1 });
    const [device] = (await a.c.post('/web/getPushSettings', {})).body.data.devices as { id: string }[];
    expect((await b.c.post('/web/unsubscribePush', { id: device!.id })).body.retcode).toBe(100002);
    expect((await a.c.post('/web/unsubscribePush', { id: device!.id })).body.retcode).toBe(0);
    expect((await a.c.post('/web/getPushSettings', {})).body.data.devices).toEqual([]);
  });
});

describe('whether an account has devices, asked by many commits at once', () => {
  it('is read once for all of them, and again once forgotten', async () => {
    const db = await openTestDb();
    const reads = vi.spyOn(pushRepo, 'count');
    try {
      const [{ id }] = (await rawQuery<{ id: number }>(
        db.q,
        `INSERT INTO accounts (brand, email) VALUES ('numa', 'burst@example.com') RETURNING id`,
      )) as [{ id: number }];
      const devices = createPushDevices({
        db,
        vapid: { subject: 'mailto:ops@example.com' },
        policy: { requireHttps: false, allowPrivate: true },
      });
      // ten commits of one account before the first read has answered
      expect(await Promise.all(Array.from({ length: 10 }, () => devices.any(id)))).toEqual(
        Array(10).fill(false),
      );
      expect(reads).toHaveBeenCalledTimes(1);
      await rawQuery(
        db.q,
        `INSERT INTO push_subscriptions (account_id, endpoint, p256dh, auth, device, lang)
         VALUES ($1, 'https://push.example.com/1', 'k', 'a', 'Chrome', 'en')`,
        [id],
      );
      devices.forget(id);
      expect(await Promise.all([devices.any(id), devices.any(id)])).toEqual([true, true]);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
      await db.drop();
    }
  });
});
