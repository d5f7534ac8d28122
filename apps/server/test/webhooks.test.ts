import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { constants, minor } from '@numa/contract';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../src/lib/clock';
import { makeUser, startChatApp, until, type ListeningApp } from './chat-support';
import { rawQuery, signIn, startTestApp, testBill, type TestApp } from './helpers';
import { ledger } from '../src/repositories/ledger';
import { webhooksRepo } from '../src/repositories/webhooks';
import { webhookBackoffMs, webhookMaxAttempts } from '../src/services/webhooks';
import {
  isPublicAddress,
  post,
  resolveTarget,
  UrlRefused,
  type UrlPolicy,
} from '../src/services/webhooks/guard';

/**
 * Webhooks (issue 21): endpoints on loopback (development) receive message.received and
 * message.status events signed so that the `standardwebhooks` library verifies them unchanged; a
 * failing endpoint is tried again on the backoff schedule (the app's clock moved, never a sleep), then
 * switched off with an e-mail; production refuses http and private addresses, at saving and at each
 * try, and connects to the address it checked.
 */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: collects what arrives; `status` says what it answers. */
async function receiver() {
  const got: Received[] = [];
  const state = { status: 204 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = state.status;
      res.end(state.status >= 400 ? 'not today' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    state,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    close: () => new Promise((r) => server.close(r)),
  };
}

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };

let t: ListeningApp;
let rx: Awaited<ReturnType<typeof receiver>>;
const clock = new ManualClock();

beforeAll(async () => {
  rx = await receiver();
  t = await startChatApp({ clock });
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

describe('webhooks in development', () => {
  type User = Awaited<ReturnType<typeof makeUser>>;
  let a: User;
  let b: User;
  const endpoint = async (u: User, path: string, events: string[], extra: Record<string, unknown> = {}) => {
    const res = await u.c.post('/web/createWebhookEndpoint', { url: rx.url(path), events, ...extra });
    expect(res.body.retcode).toBe(0);
    return res.body.data.endpoint as { id: string; secret: string; enabled: boolean };
  };

  beforeAll(async () => {
    a = await makeUser(t, { number: '+14155550801', balance: 1 });
    b = await makeUser(t, { number: '+14155550802', balance: 1 });
  });

  it('message.received and message.status reach loopback endpoints, verified by standardwebhooks', async () => {
    const ea = await endpoint(a, '/a', ['message.status']);
    const eb = await endpoint(b, '/b', ['message.received']);
    expect(ea.secret).toMatch(/^whsec_/);
    const key = (await a.c.post('/web/createApiKey', { name: 'hooks', scopes: ['messages:send'] })).body.data
      .secret;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { host: 'localhost', authorization: `Bearer ${key}` },
      payload: { from: '+14155550801', to: '+14155550802', text: 'hello hooks' },
    });
    expect(sent.statusCode).toBe(201);
    const toB = await until(async () => rx.got.find((r) => r.path === '/b'));
    const toA = await until(async () => rx.got.find((r) => r.path === '/a'));
    const evB = verify(eb.secret, toB);
    expect(evB).toMatchObject({
      type: 'message.received',
      data: { message: { text: 'hello hooks', direction: 'in', from: '+14155550801' } },
    });
    const evA = verify(ea.secret, toA);
    expect(evA).toMatchObject({
      type: 'message.status',
      data: { message: { id: sent.json().id, status: 'delivered' } },
    });
    expect(toA.headers['webhook-id']).toMatch(/^msg_/);
    // tampered, it does not verify
    expect(() => verify(ea.secret, { ...toA, body: toA.body.replace('delivered', 'failed') })).toThrow();
    // the delivery log
    // the delivery log (the try's outcome is written just after the receiver answered)
    const first = await until(async () => {
      const log = await a.c.get('/web/getWebhookDeliveries', { id: ea.id });
      const d = log.body.data.deliveries[0];
      return d?.status === 'succeeded' ? d : undefined;
    });
    expect(first).toMatchObject({ type: 'message.status', attempts: 1, lastStatus: 204 });
    // another account cannot read it
    expect((await b.c.get('/web/getWebhookDeliveries', { id: ea.id })).body.retcode).toBe(100002);
    await a.c.post('/web/deleteWebhookEndpoint', { id: ea.id });
    await b.c.post('/web/deleteWebhookEndpoint', { id: eb.id });
  });

  it('a test event goes at once and shows in the log; code.received and balance.low are sent once', async () => {
    const e = await endpoint(a, '/events', ['code.received', 'balance.low'], { balanceThreshold: 0.995 });
    const test = await a.c.post('/web/sendTestWebhook', { id: e.id });
    expect(test.body.retcode).toBe(0);
    const got = await until(async () => rx.got.find((r) => r.path === '/events'));
    expect(verify(e.secret, got)).toMatchObject({ type: 'webhook.test', data: { endpointId: e.id } });
    // balance 1 → below 0.995 after a send: balance.low once, not again on the next send
    const key = (await a.c.post('/web/createApiKey', { name: 'low', scopes: ['messages:send', 'codes'] }))
      .body.data.secret;
    const send = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: { host: 'localhost', authorization: `Bearer ${key}` },
        payload: { from: '+14155550801', to: '+14155550802', text },
      });
    const lowOnes = () =>
      rx.got.filter((r) => r.path === '/events' && verify(e.secret, r).type === 'balance.low');
    for (let i = 0; i < 70 && !lowOnes().length; i++) await send(`spend ${i}`);
    const low = await until(async () => lowOnes()[0]);
    expect(verify(e.secret, low).data).toMatchObject({ threshold: 0.995, unit: 'Coins' });
    await send('one more');
    await t.app.deps.jobs.drain();
    expect(lowOnes()).toHaveLength(1);
    // a code for a lock: code.received
    const lock = await t.app.inject({
      method: 'POST',
      url: '/api/v1/codes/locks',
      headers: { host: 'localhost', authorization: `Bearer ${key}` },
      payload: { app: 'telegram', country: 'US' },
    });
    expect(lock.statusCode).toBe(201);
    const number = lock.json().number as string;
    await t.app.inject({
      method: 'POST',
      url: '/dev/code-sms',
      payload: { number, app: 'telegram', text: 'Telegram code: 48213' },
    });
    const code = await until(async () =>
      rx.got.find((r) => r.path === '/events' && verify(e.secret, r).type === 'code.received'),
    );
    expect(verify(e.secret, code).data).toMatchObject({ app: 'telegram', number, code: '48213' });
  });

  it('a failing endpoint is tried on the backoff schedule for a day, then switched off with an e-mail', async () => {
    rx.state.status = 500;
    const e = await endpoint(b, '/failing', ['message.received']);
    const before = rx.got.filter((r) => r.path === '/failing').length;
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+12025550100', to: '14155550802', text: 'to a broken hook' },
    });
    await until(async () => rx.got.filter((r) => r.path === '/failing').length === before + 1);
    // the first try's outcome is written (its retry time set from the clock) before the clock moves
    await until(async () => {
      const log = await b.c.get('/web/getWebhookDeliveries', { id: e.id });
      return log.body.data.deliveries[0]?.nextAttemptAt;
    });
    await t.app.deps.jobs.drain();
    for (const wait of webhookBackoffMs) {
      // nothing before its time
      clock.advance(wait - 1000);
      await t.app.deps.jobs.drain();
      const tries = rx.got.filter((r) => r.path === '/failing').length - before;
      clock.advance(1000);
      await t.app.deps.jobs.drain();
      expect(rx.got.filter((r) => r.path === '/failing').length - before).toBe(tries + 1);
    }
    const all = rx.got.filter((r) => r.path === '/failing').slice(before);
    expect(all).toHaveLength(webhookMaxAttempts);
    // every try is the same event (one webhook-id), signed each time
    expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const log = await b.c.get('/web/getWebhookDeliveries', { id: e.id });
    expect(log.body.data.deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: webhookMaxAttempts,
      lastStatus: 500,
    });
    const listed = (await b.c.get('/web/getWebhookEndpoints')).body.data.endpoints.find(
      (x: { id: string }) => x.id === e.id,
    );
    expect(listed).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const mails = t.mail.sent.filter((m) => m.to === b.email);
    expect(mails.at(-1)?.subject).toMatch(/webhook endpoint was switched off/);
    // switched off: later events are not sent; switched on again, they are
    rx.state.status = 204;
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+12025550100', to: '14155550802', text: 'while off' },
    });
    await t.app.deps.jobs.drain();
    expect(rx.got.filter((r) => r.path === '/failing')).toHaveLength(before + webhookMaxAttempts);
    expect(
      (await b.c.post('/web/updateWebhookEndpoint', { id: e.id, enabled: true })).body.data.endpoint.enabled,
    ).toBe(true);
    await t.app.inject({
      method: 'POST',
      url: '/dev/inbound',
      payload: { from: '+12025550100', to: '14155550802', text: 'back on' },
    });
    await until(
      async () => rx.got.filter((r) => r.path === '/failing').length === before + webhookMaxAttempts + 1,
    );
  });
});

describe('where webhooks may go in production', () => {
  const dns: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
    'v6.example.com': ['::ffff:192.168.1.1'],
  };
  const resolve = async (host: string) => {
    const list = dns[host];
    if (!list) throw new Error('ENOTFOUND');
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const production: UrlPolicy = { requireHttps: true, allowPrivate: false, resolve };

  it('refuses http, private, loopback, mapped and partly private names; takes a public https one', async () => {
    for (const [url, why] of [
      ['http://hooks.example.com/x', /https/],
      ['https://internal.example.com/x', /private/],
      ['https://mixed.example.com/x', /127\.0\.0\.1/],
      ['https://v6.example.com/x', /private/],
      ['https://127.0.0.1/x', /private/],
      ['https://[::1]/x', /private/],
      ['https://169.254.169.254/latest/meta-data', /private/],
      ['https://nowhere.example.com/x', /resolve/],
    ] as const) {
      await expect(resolveTarget(url, production), url).rejects.toThrow(why);
    }
    await expect(resolveTarget('https://hooks.example.com/x', production)).resolves.toMatchObject({
      address: '93.184.216.34',
    });
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
    expect(isPublicAddress('fd00::1')).toBe(false);
  });

  it('the app refuses a private endpoint when it is saved', async () => {
    let app: TestApp | undefined;
    try {
      app = await startTestApp({ webhookPolicy: production });
      const c = await signIn(app.app, { email: `prod-hooks-${process.pid}@example.com` });
      const refused = await c.post('/web/createWebhookEndpoint', {
        url: 'https://internal.example.com/hook',
        events: ['message.received'],
      });
      expect(refused.body).toMatchObject({ retcode: 100001 });
      expect(refused.body.data.issues[0]).toMatchObject({
        path: 'url',
        message: expect.stringMatching(/private/),
      });
      const ok = await c.post('/web/createWebhookEndpoint', {
        url: 'https://hooks.example.com/hook',
        events: ['message.received'],
      });
      expect(ok.body.retcode).toBe(0);
    } finally {
      await app?.close();
    }
  });

  it('a try connects to the address it checked, not to a second answer of the resolver (DNS rebinding)', async () => {
    const local = await receiver();
    try {
      let asked = 0;
      const target = await resolveTarget(`http://rebind.example.com:${local.port}/pinned`, {
        requireHttps: false,
        allowPrivate: true,
        resolve: async () => {
          asked += 1;
          return [{ address: '127.0.0.1', family: 4 }];
        },
      });
      const out = await post(target, '{}', { 'content-type': 'application/json' }, 5000);
      expect(out).toMatchObject({ status: 204 });
      expect(asked).toBe(1);
      expect(local.got[0]).toMatchObject({
        path: '/pinned',
        headers: { host: `rebind.example.com:${local.port}` },
      });
    } finally {
      await local.close();
    }
    expect(new UrlRefused('x')).toBeInstanceOf(Error);
  });
});

describe("an account's endpoints, asked by many commits at once", () => {
  it('are read once while the first read runs, not once per commit', async () => {
    // the endpoints kept for 5 s, as in production (the other suites turn the caches off)
    const t = await startTestApp({ envOverrides: { SESSION_CACHE_MS: '5000' } });
    const real = webhooksRepo.endpointsOf.bind(webhooksRepo);
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    // the first read answers only once every commit has asked
    const reads = vi.spyOn(webhooksRepo, 'endpointsOf').mockImplementation(async (q, id) => {
      await gate;
      return real(q, id);
    });
    try {
      const [{ id }] = (await rawQuery<{ id: number }>(
        t.db.q,
        `INSERT INTO accounts (brand, email) VALUES ('numa', 'commits@example.com') RETURNING id`,
      )) as [{ id: number }];
      for (let i = 0; i < 10; i++)
        await t.db.tx((tx) => ledger.apply(tx, testBill(id, constants.billTypes.adjustment, minor(1))));
      // each commit's check asked as it committed (db.tx tells its listeners before it returns)
      expect(reads).toHaveBeenCalledTimes(1);
      open();
      expect(await reads.mock.results[0]!.value).toEqual([]);
    } finally {
      reads.mockRestore();
      await t.close();
    }
  });
});
