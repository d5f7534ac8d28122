import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { connect, inbox, makeUser, type ListeningApp, startChatApp } from './chat-support';
import { loggerOptions } from '../src/lib/logging';
import { apiKeyPattern } from '../src/services/apiKeys';

/**
 * The developer platform's REST side (issue 21): API keys made in the web page and used on /api/v1,
 * a send that shows live in the recipient's page and is billed once (also with one Idempotency-Key
 * twice at once), RFC 9457 problems, scopes, other accounts' data, per-key rate limits, a key never
 * on /web nor the socket, never in the logs, revocation, delivery status, and the OpenAPI document.
 */
const logLines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _enc, cb) {
    logLines.push(chunk.toString('utf8'));
    cb();
  },
});

let t: ListeningApp;
const secrets: string[] = [];

beforeAll(async () => {
  t = await startChatApp({
    envOverrides: { API_KEY_REQUESTS_PER_MINUTE: '40' },
    logger: { ...loggerOptions({ LOG_LEVEL: 'trace' }), stream: capture },
  });
});
afterAll(async () => {
  await t?.close();
});

type User = Awaited<ReturnType<typeof makeUser>>;
async function keyOf(u: User, scopes: string[], name = 'test key') {
  const res = await u.c.post('/web/createApiKey', { name, scopes });
  expect(res.body.retcode).toBe(0);
  secrets.push(res.body.data.secret);
  return res.body.data.secret as string;
}

const api = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  key: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { host: 'localhost', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });

/** The ledger invariant and the account's message bills. */
async function ledgerOf(accountId: number) {
  const [row] = await t.db.query<{ balance: number; bills: number; sms: number }>(
    `SELECT a.balance::float8 AS balance, COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = a.id), 0)::float8 AS bills,
            (SELECT count(*) FROM ledger WHERE account_id = a.id AND type IN (2, 3))::int AS sms
       FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  expect(row!.bills).toBe(row!.balance);
  return row!;
}

describe('API keys and /api/v1', () => {
  let a: User;
  let b: User;
  let keyA: string;

  beforeAll(async () => {
    a = await makeUser(t, { number: '+14155550901', balance: 2 });
    b = await makeUser(t, { number: '+14155550902', balance: 1 });
    keyA = await keyOf(a, ['messages:read', 'messages:send', 'numbers']);
  });

  it('a key is shown once, listed by its first characters with its scopes, and works only with Bearer', async () => {
    expect(keyA).toMatch(apiKeyPattern);
    const list = await a.c.get('/web/getApiKeys');
    expect(list.body.data.keys).toHaveLength(1);
    const k = list.body.data.keys[0];
    expect(k).toMatchObject({ name: 'test key', prefix: keyA.slice(0, 12), lastUsedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(keyA);
    const me = await api('GET', '/api/v1/key', keyA);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ scopes: ['messages:read', 'messages:send', 'numbers'], brand: 'numa' });
    const none = await api('GET', '/api/v1/balance', null);
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json()).toMatchObject({ type: 'urn:numa:retcode:100012', status: 401, code: 100012 });
    const bal = await api('GET', '/api/v1/balance', keyA);
    expect(bal.json()).toEqual({ balance: 2, unit: 'Coins', decimals: 4 });
    expect(bal.headers['ratelimit-policy']).toBe('"key";q=40;w=60');
    expect(bal.headers.ratelimit).toMatch(/^"key";r=\d+;t=\d+$/);
  });

  it('an API send shows live in the recipient’s page and the sender’s, and is billed once', async () => {
    const sb = await connect(t.url, b.token);
    const sa = await connect(t.url, a.token);
    try {
      const [ib, ia] = [inbox(sb), inbox(sa)];
      const before = await ledgerOf(a.accountId);
      const res = await api('POST', '/api/v1/messages', keyA, {
        from: '+1 415 555 0901',
        to: '+14155550902',
        text: 'from a program',
      });
      expect(res.statusCode).toBe(201);
      const m = res.json();
      expect(m).toMatchObject({
        from: '+14155550901',
        to: '+14155550902',
        status: 'delivered',
        direction: 'out',
        segments: 1,
      });
      expect(res.headers.location).toBe(`/api/v1/messages/${m.id}`);
      expect(await ib.next((x) => x.text === 'from a program')).toMatchObject({
        direction: 'in',
        fromNumber: '14155550901',
      });
      expect(await ia.next((x) => x.smsId === m.id)).toMatchObject({
        direction: 'out',
        status: 0,
        delivered: true,
      });
      const after = await ledgerOf(a.accountId);
      expect(after.sms).toBe(before.sms + 1);
      expect(after.balance).toBe(before.balance - 80);
      // the reverse: a send from the web page (the socket) is there for the API
      sb.emit('sendMessage', {
        fromNumber: '14155550902',
        toNumber: '14155550901',
        text: 'from the page',
        msgType: 'sms',
        smsId: `web-${Date.now()}`,
        platform: 'numa',
        languagecode: 'en',
      });
      await ia.next((x) => x.text === 'from the page');
      const conv = await api('GET', '/api/v1/conversations', keyA);
      expect(conv.statusCode).toBe(200);
      const c = conv.json().data.find((x: { id: string }) => x.id === '14155550901-14155550902');
      expect(c.lastMessage).toMatchObject({ text: 'from the page', direction: 'in', from: '+14155550902' });
      const msgs = await api('GET', `/api/v1/conversations/${c.id}/messages?limit=1`, keyA);
      expect(msgs.json().data).toHaveLength(1);
      const older = await api(
        'GET',
        `/api/v1/conversations/${c.id}/messages?limit=1&cursor=${msgs.json().nextCursor}`,
        keyA,
      );
      expect(older.json().data[0]).toMatchObject({ id: m.id, text: 'from a program' });
    } finally {
      sa.close();
      sb.close();
    }
  });

  it('one Idempotency-Key sent twice at once sends and bills one message; reused with another request it is 422', async () => {
    const before = await ledgerOf(a.accountId);
    const body = { from: '+14155550901', to: '+14155550902', text: 'exactly once' };
    const headers = { 'idempotency-key': `order-${Date.now()}` };
    const [r1, r2] = await Promise.all([
      api('POST', '/api/v1/messages', keyA, body, headers),
      api('POST', '/api/v1/messages', keyA, body, headers),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 201]);
    expect(r1.json().id).toBe(r2.json().id);
    const replayed = [r1, r2].find((r) => r.statusCode === 200)!;
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const again = await api('POST', '/api/v1/messages', keyA, body, headers);
    expect(again.statusCode).toBe(200);
    const after = await ledgerOf(a.accountId);
    expect(after.sms).toBe(before.sms + 1);
    const [{ n }] = (await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND text = 'exactly once'`,
      [b.accountId],
    )) as [{ n: number }];
    expect(n).toBe(1);
    const other = await api('POST', '/api/v1/messages', keyA, { ...body, text: 'something else' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 100001, detail: expect.stringMatching(/Idempotency-Key/) });
  });

  it('bad input, a number not yours and a short balance are problems with the web page’s retcodes; nothing is stored', async () => {
    const bad = await api('POST', '/api/v1/messages', keyA, { from: '+14155550901', to: '12', text: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { path: string }) => e.path)).toContain('body.to');
    const extra = await api('POST', '/api/v1/messages', keyA, {
      from: '+14155550901',
      to: '+14155550902',
      text: 'x',
      platform: 'numa',
    });
    expect(extra.json().errors[0]).toMatchObject({ path: 'body.platform', message: 'Unknown field' });
    const notMine = await api('POST', '/api/v1/messages', keyA, {
      from: '+14155550902',
      to: '+14155550901',
      text: 'spoof',
    });
    expect(notMine.json()).toMatchObject({ code: 300032 });
    const poor = await makeUser(t, { number: '+14155550903' });
    const keyP = await keyOf(poor, ['messages:send']);
    const broke = await api('POST', '/api/v1/messages', keyP, {
      from: '+14155550903',
      to: '+14155550902',
      text: 'no money',
    });
    expect(broke.json()).toMatchObject({ code: 400001, status: 400 });
    expect((await ledgerOf(poor.accountId)).sms).toBe(0);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { host: 'localhost', authorization: `Bearer ${keyA}`, 'content-type': 'application/json' },
      payload: '{oops',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.headers['content-type']).toMatch(/problem\+json/);
    const nowhere = await api('GET', '/api/v1/nothing-here', keyA);
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toMatchObject({ code: 100002 });
  });

  it('a key reads and sends for its own account only, and within its scopes', async () => {
    const keyB = await keyOf(b, ['messages:read']);
    const mine = await api('POST', '/api/v1/messages', keyA, {
      from: '+14155550901',
      to: '+14155550902',
      text: 'private',
    });
    const id = mine.json().id as string;
    expect((await api('GET', `/api/v1/messages/${id}`, keyA)).statusCode).toBe(200);
    // B's key: B's copy has another id; A's id is nothing of B's
    expect((await api('GET', `/api/v1/messages/${id}`, keyB)).statusCode).toBe(404);
    const bConvs = (await api('GET', '/api/v1/conversations', keyB)).json().data as { own: string }[];
    expect(bConvs.every((c) => c.own === '+14155550902')).toBe(true);
    const fromA = await api('GET', '/api/v1/conversations/14155550901-14155550902/messages', keyB);
    expect(fromA.json().data).toEqual([]);
    const send = await api('POST', '/api/v1/messages', keyB, {
      from: '+14155550902',
      to: '+14155550901',
      text: 'no scope',
    });
    expect(send.statusCode).toBe(403);
    expect(send.json()).toMatchObject({ code: 100003, detail: expect.stringMatching(/messages:send/) });
    expect((await api('GET', '/api/v1/numbers', keyB)).statusCode).toBe(200);
    expect((await api('GET', '/api/v1/numbers/available?country=US', keyB)).statusCode).toBe(403);
    // another brand's host: the key is bound to its brand
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/v1/balance',
      headers: { host: 'wephone.localhost', authorization: `Bearer ${keyB}` },
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('a key is refused on /web and on the socket', async () => {
    const web = await t.app.inject({
      method: 'GET',
      url: '/web/getAccountInfo?languagecode=en',
      headers: { host: 'localhost', 'auth-token': keyA },
    });
    expect(web.json().retcode).toBe(100012);
    const bearerOnWeb = await t.app.inject({
      method: 'GET',
      url: '/web/getAccountInfo?languagecode=en',
      headers: { host: 'localhost', authorization: `Bearer ${keyA}` },
    });
    expect(bearerOnWeb.json().retcode).toBe(100012);
    await expect(connect(t.url, keyA)).rejects.toMatchObject({ data: { retcode: 100012 } });
  });

  it('each key has its budget of calls a minute: RateLimit fields, then 429 with Retry-After', async () => {
    const k = await keyOf(a, ['messages:read'], 'busy');
    const seen: number[] = [];
    for (let i = 0; i < 41; i++) {
      const r = await api('GET', '/api/v1/balance', k);
      seen.push(r.statusCode);
      if (r.statusCode === 429) {
        expect(r.headers['retry-after']).toMatch(/^\d+$/);
        expect(r.headers.ratelimit).toMatch(/^"key";r=0;t=\d+$/);
        expect(r.json()).toMatchObject({ code: 100015, status: 429 });
      }
    }
    expect(seen.filter((s) => s === 200)).toHaveLength(40);
    expect(seen[40]).toBe(429);
    // another key of the same account has its own budget
    expect((await api('GET', '/api/v1/balance', keyA)).statusCode).toBe(200);
  });

  it('a revoked key is refused at once', async () => {
    const k = await keyOf(a, ['messages:read'], 'short-lived');
    expect((await api('GET', '/api/v1/balance', k)).statusCode).toBe(200);
    const list = await a.c.get('/web/getApiKeys');
    const id = list.body.data.keys.find((x: { name: string }) => x.name === 'short-lived').id;
    expect((await a.c.post('/web/revokeApiKey', { id })).body.retcode).toBe(0);
    expect((await api('GET', '/api/v1/balance', k)).statusCode).toBe(401);
    // another account cannot revoke it (nor see it)
    expect((await b.c.post('/web/revokeApiKey', { id: list.body.data.keys[0].id })).body.retcode).toBe(
      100002,
    );
  });

  it('the carrier’s delivery report makes a message delivered: in the API, and on the sender’s page', async () => {
    const sa = await connect(t.url, a.token);
    try {
      const ia = inbox(sa);
      const res = await api('POST', '/api/v1/messages', keyA, {
        from: '+14155550901',
        to: '+14155550999',
        text: 'off the platform',
      });
      expect(res.json()).toMatchObject({ status: 'pending' });
      expect(res.statusCode).toBe(201);
      const id = res.json().id as string;
      await ia.next((x) => x.smsId === id && x.status === 0 && !x.delivered);
      const [{ carrierId }] = (await t.db.query<{ carrierId: string }>(
        `SELECT carrier_id AS "carrierId" FROM messages WHERE sms_id = $1`,
        [id],
      )) as [{ carrierId: string }];
      expect((await api('GET', `/api/v1/messages/${id}`, keyA)).json().status).toBe('sent');
      const dev = await t.app.inject({
        method: 'POST',
        url: '/dev/status',
        payload: { carrierId, status: 'delivered' },
      });
      expect(dev.statusCode).toBe(200);
      expect(await ia.next((x) => x.smsId === id && x.delivered === true)).toMatchObject({ status: 0 });
      const got = (await api('GET', `/api/v1/messages/${id}`, keyA)).json();
      expect(got).toMatchObject({ status: 'delivered', deliveredAt: expect.any(String) });
      const page = await a.c.get('/web/getDialogList', {
        ownFullNumber: '14155550901',
        otherFullNumber: '14155550999',
      });
      expect(page.body.data.dialogList[0]).toMatchObject({ smsId: id, delivered: true });
    } finally {
      sa.close();
    }
  });
});

describe('the OpenAPI document and its reference page', () => {
  it('validates as OpenAPI 3.1 and documents every operation', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { host: 'localhost' },
    });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/messages',
        '/api/v1/messages/{id}',
        '/api/v1/conversations',
        '/api/v1/numbers',
        '/api/v1/codes/locks',
        '/api/v1/webhooks',
        '/api/v1/balance',
      ]),
    );
    expect(
      doc.components.schemas.Message.properties.status.$ref ??
        doc.components.schemas.Message.properties.status,
    ).toBeTruthy();
  });

  it('the reference page and its files are served from this server under a strict CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/v1/docs', headers: { host: 'localhost' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.body).toContain('/api/v1/docs/swagger-ui-bundle.js');
    for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
      const r = await t.app.inject({
        method: 'GET',
        url: `/api/v1/docs/${f}`,
        headers: { host: 'localhost' },
      });
      expect(r.statusCode).toBe(200);
      expect(r.body.length).toBeGreaterThan(10);
    }
  });
});

describe('logs', () => {
  it('never hold an API key (Authorization and handler_api’s api_key are redacted)', async () => {
    const k = secrets[0]!;
    await t.app.inject({
      method: 'GET',
      url: `/stubs/handler_api.php?api_key=${k}&action=getBalance`,
      headers: { host: 'localhost' },
    });
    await t.app.inject({
      method: 'GET',
      url: `/stubs/handler_api.php?api_key=${k}x&action=getBalance`,
      headers: { host: 'localhost' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages',
      headers: { host: 'localhost', authorization: `Bearer ${k}`, 'content-type': 'application/json' },
      payload: '{broken',
    });
    const text = logLines.join('');
    expect(text).toContain('handler_api.php?api_key=[redacted]');
    expect(text.length).toBeGreaterThan(1000);
    for (const s of secrets) {
      expect(text).not.toContain(s);
      expect(text).not.toContain(s.slice(12));
    }
  });
});
