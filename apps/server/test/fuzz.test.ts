import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { io as connectIo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endpoints,
  httpStatusOf,
  isRetcode,
  SendPayload,
  socketPath,
  type EndpointDef,
} from '@numa/contract';
import { signIn, testDbKind } from './helpers';
import { connect, makeUser, startChatApp, textPayload, type ListeningApp } from './chat-support';
import { junk, malformed, nastyStrings } from './fuzz/arbitrary';

/**
 * Issue 9, hole 10: requests generated from the contract's zod schemas (fuzz/arbitrary.ts) against
 * every served /web route, with and without a valid token, and malformed socket events. Every answer
 * must be the envelope with a contract retcode and its HTTP status, never a 5xx; the server must go
 * on serving. The seed is fixed (FUZZ_SEED overrides it) so a failure is reproducible, and fast-check
 * shrinks a failing request to a small one.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 30);

let t: ListeningApp;
let token: string;
beforeAll(async () => {
  // limits out of the way: the point is what each handler does with bad input, not the 429 in front of it
  t = await startChatApp({
    envOverrides: {
      IP_RATE_LIMIT_FACTOR: '10000',
      ACCOUNT_CALLS_BURST: '1000000',
      SOCKET_EVENTS_PER_SECOND: '100000',
      SOCKET_EVENTS_BURST: '100000',
      ACCOUNT_EVENTS_PER_SECOND: '100000',
      ACCOUNT_EVENTS_BURST: '100000',
    },
  });
  token = (await signIn(t.app, { email: `fuzz.${Date.now()}@example.com` })).token!;
});
afterAll(async () => {
  await t?.close();
});

const served = () =>
  (Object.values(endpoints) as EndpointDef[]).filter((ep) =>
    t.app.hasRoute({ method: ep.method, url: ep.path }),
  );

let ip = 0;
const nextIp = () =>
  `10.${100 + (Math.floor(ip / 62500) % 100)}.${Math.floor(ip / 250) % 250}.${(ip++ % 250) + 1}`;

/** Percent-encodes the UTF-8 bytes of any string (encodeURIComponent throws on a lone surrogate). */
const enc = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

/** A query string from anything: arrays repeat their key, objects go as JSON, strings as they are. */
function toQuery(input: unknown): string {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return `value=${enc(JSON.stringify(input) ?? '')}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) {
      const text = typeof item === 'string' ? item : JSON.stringify(item);
      parts.push(`${enc(k)}=${enc(text ?? '')}`);
    }
  }
  return parts.join('&');
}

/** A multipart body of text fields and random file parts (updateKYCInfo). */
function multipart(fields: unknown, files: Uint8Array[]): { body: Buffer; type: string } {
  const boundary = `fuzz${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  const entries =
    typeof fields === 'object' && fields !== null && !Array.isArray(fields)
      ? Object.entries(fields)
      : [['junk', fields]];
  for (const [k, v] of [['platform', 'numa'], ...entries] as [string, unknown][]) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
      ),
    );
  }
  files.forEach((bytes, i) => {
    const slot = ['idCard1', 'idCard2', 'idHold1', 'idHold2', 'idCard3'][i % 5];
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${slot}"; filename="f${i}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
    );
    chunks.push(Buffer.from(bytes), Buffer.from('\r\n'));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** The envelope, a contract retcode, the HTTP status that goes with it, never a 5xx. */
function expectEnvelope(res: Answer, what: string) {
  expect(res.status, `${what} → ${res.status} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.contentType, what).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as { retcode: unknown; retmsg: unknown; data: unknown };
  expect(Object.keys(body).sort(), what).toEqual(['data', 'retcode', 'retmsg']);
  expect(typeof body.retcode, what).toBe('number');
  expect(isRetcode(body.retcode as number), `${what}: retcode ${String(body.retcode)}`).toBe(true);
  expect(typeof body.retmsg, what).toBe('string');
  if (body.retcode !== 0) expect((body.retmsg as string).length, what).toBeGreaterThan(0);
  expect(res.status, `${what}: status of ${String(body.retcode)}`).toBe(httpStatusOf(body.retcode as number));
  return body;
}

const inject = async (opts: InjectOptions): Promise<Answer> => {
  const res = await t.app.inject({ remoteAddress: nextIp(), ...opts });
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
};

/** How a fuzzed request rides: the input, the token or none, and the body's wrapping. */
const requestShape = (ep: EndpointDef) =>
  fc.record({
    input: malformed(ep.input),
    withToken: fc.boolean(),
    platform: fc.oneof(
      { arbitrary: fc.constant<unknown>('numa'), weight: 8 },
      { arbitrary: junk, weight: 1 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    ),
    languagecode: fc.oneof(
      { arbitrary: fc.constantFrom('en', 'zh_cn'), weight: 8 },
      { arbitrary: fc.constantFrom(...nastyStrings.slice(0, 8)), weight: 1 },
    ),
    rawBody: fc.option(
      fc.oneof(
        fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '\u0000', '{"platform":"numa",}'),
        fc.string({ maxLength: 40 }),
      ),
      { freq: 8 },
    ),
    files: fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 3 }),
  });

let sent = 0;
let sentWithToken = 0;

type Shaped = ReturnType<typeof requestShape> extends fc.Arbitrary<infer T> ? T : never;

async function fire(ep: EndpointDef, r: Shaped) {
  const headers: Record<string, string> = { host: 'localhost' };
  if (r.withToken) headers['auth-token'] = token;
  const url = `${ep.path}?languagecode=${enc(r.languagecode)}&t=${Date.now()}&webVersion=fuzz`;
  let res: Answer;
  if (ep.multipart && r.rawBody !== null) {
    // a body that is not the multipart it says it is (no boundary, cut short, garbage)
    const type = r.rawBody.length % 2 ? 'multipart/form-data' : 'multipart/form-data; boundary=xyz';
    res = await inject({
      method: ep.method,
      url,
      headers: { ...headers, 'content-type': type },
      payload: r.rawBody.length % 3 ? `--xyz\r\n${r.rawBody}` : r.rawBody,
    });
  } else if (ep.multipart) {
    const { body, type } = multipart(r.input, r.files);
    res = await inject({
      method: ep.method,
      url,
      headers: { ...headers, 'content-type': type },
      payload: body,
    });
  } else if (ep.method === 'GET' || ep.method === 'DELETE') {
    const q = toQuery(r.input);
    res = await inject({ method: ep.method, url: `${url}${q ? `&${q}` : ''}`, headers });
  } else {
    const body =
      r.rawBody ??
      JSON.stringify(
        typeof r.input === 'object' && r.input !== null && !Array.isArray(r.input) && r.platform !== undefined
          ? { platform: r.platform, ...(r.input as Record<string, unknown>) }
          : r.input,
      ) ??
      'null';
    res = await inject({
      method: ep.method,
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: body,
    });
  }
  sent++;
  if (r.withToken) sentWithToken++;
  const what = `${ep.method} ${ep.path} ${JSON.stringify(r).slice(0, 400)}`;
  const body = expectEnvelope(res, what);
  // a call that ended the fuzzing session (logout, refresh): carry on with a fresh one
  if (r.withToken && [100012, 100013, 100014].includes(body.retcode as number)) {
    token = (await signIn(t.app, { email: `fuzz.${Date.now()}.${sent}@example.com` })).token!;
  }
}

describe(`fuzzing every served /web route from the contract (${testDbKind})`, () => {
  it('answers malformed requests with the envelope and a 4xx, with and without a token, and goes on serving', async () => {
    const routes = served();
    expect(routes.length).toBeGreaterThanOrEqual(30);
    for (const [i, ep] of routes.entries()) {
      await fc.assert(
        fc.asyncProperty(requestShape(ep), (r) => fire(ep, r)),
        { numRuns: runsPerRoute, seed: seed + i, endOnFailure: false },
      );
    }
    // paths the contract does not have, and methods it does not use
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') as fc.Arbitrary<
          InjectOptions['method']
        >,
        async (p, method) => {
          const res = await inject({
            method,
            url: `/web/${enc(p)}x`,
            headers: { 'content-type': 'application/json' },
            payload: method === 'GET' || method === 'OPTIONS' ? undefined : '{}',
          });
          sent++;
          expectEnvelope(res, `${method} /web/${p}x`);
        },
      ),
      { numRuns: 60, seed },
    );
    console.warn(
      `fuzz: ${sent} requests over ${routes.length} routes (${sentWithToken} with a valid token), seed ${seed}`,
    );
    expect(sent).toBeGreaterThanOrEqual(1000);
    expect(sentWithToken).toBeGreaterThanOrEqual(300);

    // still serving: health, a sign-in, an authenticated call
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    const fresh = await signIn(t.app, { email: `after.fuzz.${Date.now()}@example.com` });
    expect((await fresh.get('/web/getAccountInfo')).body.retcode).toBe(0);
  }, 120_000);
});

describe(`fuzzing the socket (${testDbKind})`, () => {
  it('refuses malformed sendMessage events and handshakes without falling over', async () => {
    const a = await makeUser(t, { number: '+14155550981', balance: 1 });
    const b = await makeUser(t, { number: '+14155550982' });
    const s = await connect(t.url, a.token);
    const answers: { retcode: number; retmsg: string }[] = [];
    const events = fc.sample(
      fc.oneof(
        malformed(SendPayload),
        junk,
        fc.record({
          fileBuffer: fc.uint8Array({ maxLength: 256 }),
          msgType: fc.constant('mms'),
          fileType: fc.constantFrom('image/png', 'text/html', '', '../x'),
          fileName: fc.string(),
        }),
      ),
      { numRuns: 300, seed },
    );
    for (const payload of events) {
      const answer = await new Promise<{ retcode: number; retmsg: string }>((resolve) =>
        (
          s as unknown as {
            emit(ev: string, p: unknown, ack: (a: { retcode: number; retmsg: string }) => void): void;
          }
        ).emit('sendMessage', payload, resolve),
      );
      answers.push(answer);
    }
    // unknown events, and sendMessage without an ack, are ignored quietly
    for (const payload of events.slice(0, 50)) {
      (s as unknown as { emit(ev: string, p: unknown): void }).emit('somethingElse', payload);
      s.emit('sendMessage', payload as never);
    }
    expect(answers).toHaveLength(300);
    for (const ans of answers) {
      expect(isRetcode(ans.retcode), JSON.stringify(ans)).toBe(true);
      expect(ans.retcode, JSON.stringify(ans)).not.toBe(100000);
      if (ans.retcode !== 0) expect(ans.retmsg.length).toBeGreaterThan(0);
    }
    expect(answers.filter((x) => x.retcode === 100001).length).toBeGreaterThan(100);
    expect(s.connected).toBe(true);

    // malformed handshakes: refused with a contract code, never an internal error
    const handshakes = fc.sample(
      fc.record({
        token: fc.oneof(junk, fc.constant(a.token)),
        languagecode: fc.oneof(fc.constant(undefined), junk, fc.constantFrom('en', 'zh_cn')),
      }),
      { numRuns: 40, seed },
    );
    for (const query of handshakes) {
      // well-formed text only: the client library itself cannot encode a lone surrogate
      const text = (v: unknown) =>
        Buffer.from(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''), 'utf8').toString('utf8');
      const q = Object.fromEntries(
        Object.entries(query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, text(v)]),
      );
      const result = await new Promise<{ ok: true } | { ok: false; data?: { retcode: number } }>(
        (resolve) => {
          const c = connectIo(t.url, {
            path: socketPath,
            query: q,
            transports: ['websocket'],
            reconnection: false,
            forceNew: true,
            timeout: 5000,
          });
          c.once('connect', () => {
            c.close();
            resolve({ ok: true });
          });
          c.once('connect_error', (err) => {
            c.close();
            resolve({ ok: false, data: (err as Error & { data?: { retcode: number } }).data });
          });
        },
      );
      if (!result.ok)
        expect([100001, 100012, 100015], JSON.stringify({ q, result })).toContain(result.data?.retcode);
    }

    // and the socket still carries real messages
    const sb = await connect(t.url, b.token);
    const p = textPayload(a.number, b.number, 'after the fuzz');
    const got = new Promise((resolve) =>
      sb.on('receiveMessage', (m) => m.text === 'after the fuzz' && resolve(m)),
    );
    s.emit('sendMessage', p);
    await got;
    s.close();
    sb.close();
  }, 120_000);
});
