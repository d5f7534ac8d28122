import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { constants } from '@numa/contract';
import { buildApp } from '../src/app';
import { ManualClock } from '../src/lib/clock';
import { jobQueueScanCap } from '../src/metrics';
import {
  CarrierError,
  type CarrierPort,
  type CarrierSink,
  type CarrierRecord,
  type HandOverLookup,
  type OutboundMessage,
} from '../src/providers/carrier/port';
import { sandboxSignatureHeader, signSandbox } from '../src/providers/payments/sandbox';
import { ledger } from '../src/repositories/ledger';
import { metricsRepo } from '../src/repositories/metrics';
import {
  connect,
  credit,
  inbox,
  makeUser,
  startChatApp,
  textPayload,
  until,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';
import { client, signIn, testBill, testDbKind, testEnv } from './helpers';

/**
 * Metrics (issue 18 §8): /metrics is reachable only where configured (a bearer token on the main
 * port, or the separate metrics port), and a scrape shows, with their labels and exact values, what
 * the server did: HTTP calls, socket events, job runs and the queue, carrier hand-overs, payment
 * notifications, bills, renewals and code locks. Values are read as deltas between two scrapes.
 */

// ---- the exposition format, parsed (a small strict parser: every line a comment or a sample) ----

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      expect(families.has(type[1]!), `family ${type[1]} declared twice`).toBe(false);
      families.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
      let at = 0;
      while (at < m[2].length) {
        re.lastIndex = at;
        const l = re.exec(m[2]);
        if (!l) throw new Error(`bad labels: ${line}`);
        labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
        at = re.lastIndex;
      }
    }
    // as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan")
    const special = /^(?:([+-]?)inf|nan)$/i.exec(m[3]!);
    const value = special
      ? special[1] === undefined
        ? NaN
        : special[1] === '-'
          ? -Infinity
          : Infinity
      : Number(m[3]);
    expect(Number.isNaN(value) && !special, line).toBe(false);
    const family = families.has(m[1]!) ? m[1]! : m[1]!.replace(/_(bucket|sum|count)$/, '');
    expect(families.has(family), `sample ${m[1]} without # TYPE`).toBe(true);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

const sameLabels = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
/** The value of the sample with exactly these labels; 0 when the series does not exist (yet). */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && sameLabels(s.labels, labels))?.value ?? 0;

// ---- the app under test ----

const token = 'metrics-token-0123456789abcdef0123456789abcdef';
const secret = 'test-sandbox-secret-0123456789';
const clock = new ManualClock(Date.parse('2026-03-10T10:00:00Z'));

/** A carrier whose answers the test chooses by the destination's last four digits. */
class FakeCarrier implements CarrierPort {
  readonly name = 'fake';
  sink: CarrierSink | null = null;
  attach(sink: CarrierSink) {
    this.sink = sink;
  }
  async sendSms() {
    return { id: `fake-sms-${Math.random().toString(36).slice(2)}` };
  }
  async sendMessage(m: OutboundMessage) {
    const tail = m.to.slice(-4);
    if (tail === '9002') throw new CarrierError('unknown destination', '21211', true, 300031);
    if (tail === '9003') throw new CarrierError('carrier busy', '20429', false);
    const id = `fake-${m.idempotencyKey}`;
    this.accepted.push({ id, at: new Date(), key: m.idempotencyKey });
    return { id };
  }
  /** What this carrier accepted, for the hand-over lookup of a later try. */
  accepted: Array<CarrierRecord & { key: string }> = [];
  async lookupMessage(m: HandOverLookup) {
    return this.accepted.filter((r) => r.key === m.idempotencyKey).map(({ key: _k, ...r }) => r);
  }
}
const carrier = new FakeCarrier();

let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
beforeAll(async () => {
  t = await startChatApp({
    clock,
    carrier,
    jobs: { pollMs: 60_000 },
    chats: { maxAttempts: 2, retryDelayMs: 1_000 },
    envOverrides: { METRICS_TOKEN: token, METRICS_PORT: '0', PAYMENT_SANDBOX_SECRET: secret },
  });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

const scrapeText = async (app: FastifyInstance = t.app) => {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};
const scrape = async () => parseExposition(await scrapeText());

let seq = 0;
/** An account with a session (made directly) and a balance. */
async function user(balance: number) {
  const email = `metrics${process.pid}x${seq++}@example.com`;
  const [{ id }] = (await t.db.query<{ id: number }>(
    `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
    [email],
  )) as [{ id: number }];
  const tok = await t.db.tx(async (tx) => {
    if (balance) await credit(tx, id, balance);
    return (await t.app.deps.sessions.start(tx, id, {})).token;
  });
  const c = client(t.app);
  c.setToken(tok);
  return { id, c };
}
const withProfile = (id: number) =>
  t.db.query(
    `INSERT INTO billing_profiles (account_id, first_name, last_name, address, city, province, postal_code, country, status)
     VALUES ($1, 'Ada', 'Lovelace', '1 Main St', 'Austin', 'TX', '73301', 'US', 2)`,
    [id],
  );

describe(`metrics (${testDbKind})`, () => {
  it('answers only where configured: nothing on the main port by default, a bearer token, a loopback port', async () => {
    // unconfigured: the main port has no /metrics, whatever the Accept header or an Authorization
    const plain = await buildApp({ env: testEnv(), db: t.db, clock, jobs: { pollMs: 60_000 } });
    try {
      for (const headers of [
        {},
        { accept: 'text/html,*/*' },
        { accept: 'text/plain;version=0.0.4;q=0.4,*/*;q=0.1', authorization: `Bearer ${token}` },
      ]) {
        const res = await plain.inject({ url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ retcode: 100002, data: null });
      }
      expect(plain.metricsAddress()).toBeNull();
    } finally {
      await plain.close();
    }

    // a token: 401 (the envelope, WWW-Authenticate) without it or with another; 200 with it
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${token}`, `Bearer ${token}x`]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toMatchObject({ retcode: 100012 });
      expect(res.body).not.toContain('numa_');
    }
    const ok = await t.app.inject({ url: '/metrics', headers: { authorization: `bearer  ${token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.body).toContain('# TYPE numa_http_request_duration_seconds histogram');

    // the metrics port of the same app asks for the token too, and answers GET /metrics only
    const address = t.app.metricsAddress()!;
    expect(address.address).toBe('127.0.0.1');
    const base = `http://127.0.0.1:${address.port}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const viaPort = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(viaPort.status).toBe(200);
    expect(parseExposition(await viaPort.text()).length).toBeGreaterThan(50);

    // a metrics port without a token: open on loopback; the main port still has nothing
    const portOnly = await buildApp({
      env: testEnv({ METRICS_PORT: '0' }),
      db: t.db,
      clock,
      jobs: { pollMs: 60_000 },
    });
    try {
      await portOnly.ready();
      const p = `http://127.0.0.1:${portOnly.metricsAddress()!.port}`;
      const res = await fetch(`${p}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const own = parseExposition(await res.text());
      // its own registry: none of the first app's requests (two apps in one process do not mix)
      expect(
        valueOf(own, 'numa_http_request_duration_seconds_count', {
          route: '/metrics',
          method: 'GET',
          status_class: '2xx',
        }),
      ).toBe(0);
      expect(own.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
      expect((await fetch(`${p}/`)).status).toBe(404);
      expect((await fetch(`${p}/metrics/x`)).status).toBe(404);
      expect((await fetch(`${p}/metrics`, { method: 'POST' })).status).toBe(404);
      expect((await portOnly.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await portOnly.close();
    }
  });

  it('times HTTP calls by route pattern, method and status class, never by the raw URL', async () => {
    const u = await user(0);
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await u.c.get('/web/getAccountInfo')).status).toBe(200);
    expect((await u.c.get('/web/getCodeNumberFeeByAppV2', { app: 'notanapp', code: 'US' })).status).toBe(400);
    expect((await t.app.inject({ url: '/media/no-such-file-abc123' })).statusCode).toBe(401); // no session
    expect((await t.app.inject({ url: '/web/no-such-call-xyz789' })).statusCode).toBe(404);
    const after = await scrape();
    const count = (route: string, method: string, status_class: string) =>
      valueOf(after, 'numa_http_request_duration_seconds_count', { route, method, status_class }) -
      valueOf(before, 'numa_http_request_duration_seconds_count', { route, method, status_class });
    expect(count('/web/getAccountInfo', 'GET', '2xx')).toBe(3);
    expect(count('/web/getCodeNumberFeeByAppV2', 'GET', '4xx')).toBe(1);
    expect(count('/media/:id', 'GET', '4xx')).toBe(1);
    expect(count('unmatched', 'GET', '4xx')).toBe(1);
    // the histogram's buckets add up: every call answered within the last (+Inf) bucket
    const inf = valueOf(after, 'numa_http_request_duration_seconds_bucket', {
      route: '/web/getAccountInfo',
      method: 'GET',
      status_class: '2xx',
      le: '+Inf',
    });
    expect(inf).toBe(
      valueOf(after, 'numa_http_request_duration_seconds_count', {
        route: '/web/getAccountInfo',
        method: 'GET',
        status_class: '2xx',
      }),
    );
    const routes = new Set(after.filter((s) => s.labels.route).map((s) => s.labels.route));
    for (const r of routes) expect(r).not.toMatch(/abc123|xyz789/);
  });

  it('counts socket handshakes and events, carrier hand-overs and reports, job runs and failures, and their bills', async () => {
    const a = await makeUser(t, { number: '+14155550171', balance: 5 });
    const b = await makeUser(t, { number: '+14155550172' });
    const before = await scrape();

    await expect(connect(t.url, 'x'.repeat(40))).rejects.toMatchObject({ data: { retcode: 100012 } });
    const sa = await connect(t.url, a.token);
    const sb = await connect(t.url, b.token);
    sockets.push(sa, sb);
    const ina = inbox(sa);

    // on the platform (no carrier), then three off it: accepted, refused for good, failing until the last try
    const p0 = textPayload(a.number, b.number, 'to B');
    sa.emit('sendMessage', p0);
    await ina.next((m) => m.smsId === p0.smsId);
    const [ok, refused, busy] = ['14155559001', '14155559002', '14155559003'].map((to) =>
      textPayload(a.number, to, `to ${to}`),
    ) as [ReturnType<typeof textPayload>, ReturnType<typeof textPayload>, ReturnType<typeof textPayload>];
    for (const p of [ok, refused, busy]) sa.emit('sendMessage', p);
    await ina.next((m) => m.smsId === ok.smsId && m.status === constants.messageStatus.sent);
    await ina.next((m) => m.smsId === refused.smsId && m.status === constants.messageStatus.failed);
    // bad input: refused before anything is stored
    sa.emit('sendMessage', { ...textPayload(a.number, b.number, 'x'), msgType: 'fax' } as never);
    await ina.next((m) => m.retcode === 100001);
    // the busy one's first try failed when sent (its job waits for the retry); its second (last) try
    // fails for good and refunds it
    await until(
      async () =>
        (
          await t.db.query(
            `SELECT 1 FROM jobs WHERE name = 'carrier.send' AND attempts = 1 AND locked_by IS NULL AND failed_at IS NULL`,
          )
        ).length === 1,
    );
    clock.advance(1_000);
    await t.app.deps.jobs.drain();
    await ina.next((m) => m.smsId === busy.smsId && m.status === constants.messageStatus.failed);
    // the carrier's inbound side: a delivery report and a message for a holder and for nobody
    await carrier.sink!.status({ carrierId: `fake-msg-x`, status: 'delivered' });
    await carrier.sink!.inbound({
      carrierId: 'in-1',
      from: '14155550100',
      to: b.number,
      text: 'hi',
      media: [],
    });
    await carrier.sink!.inbound({
      carrierId: 'in-2',
      from: '14155550100',
      to: '14155559009',
      text: 'hi',
      media: [],
    });

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(delta('numa_socket_handshakes_total', { outcome: 'ok', retcode: '0' })).toBe(2);
    expect(delta('numa_socket_handshakes_total', { outcome: 'refused', retcode: '100012' })).toBe(1);
    expect(delta('numa_socket_events_total', { event: 'sendMessage', outcome: 'ok', retcode: '0' })).toBe(4);
    expect(
      delta('numa_socket_events_total', { event: 'sendMessage', outcome: 'refused', retcode: '100001' }),
    ).toBe(1);
    expect(valueOf(after, 'numa_sockets_connected')).toBe(2);

    const handovers = (outcome: string) =>
      delta('numa_carrier_handovers_total', { carrier: 'fake', kind: 'message', outcome });
    expect([handovers('accepted'), handovers('refused'), handovers('failed')]).toEqual([1, 1, 2]);
    expect(delta('numa_carrier_handover_duration_seconds_count', { carrier: 'fake', kind: 'message' })).toBe(
      4,
    );
    expect(delta('numa_carrier_reports_total', { carrier: 'fake', status: 'delivered' })).toBe(1);
    expect(delta('numa_carrier_inbound_total', { carrier: 'fake', outcome: 'delivered' })).toBe(1);
    expect(delta('numa_carrier_inbound_total', { carrier: 'fake', outcome: 'dropped' })).toBe(1);

    // carrier.send: born claimed for the three off the platform; accepted and refused end done, busy retries then fails
    const runs = (outcome: string) => delta('numa_job_runs_total', { job: 'carrier.send', outcome });
    expect([runs('done'), runs('retry'), runs('failed')]).toEqual([2, 1, 1]);

    // bills: four texts, two refunds (the refused one and the busy one)
    expect(delta('numa_ledger_bills_total', { type: 'sms' })).toBe(4);
    expect(delta('numa_ledger_bills_total', { type: 'refund' })).toBe(2);
  });

  it('counts bills once committed, by bill type; a rolled-back one not at all', async () => {
    const u = await user(0);
    const before = await scrape();
    await t.db.tx(async (tx) => {
      await credit(tx, u.id, 2);
      await credit(tx, u.id, 1);
    });
    await expect(
      t.db.tx(async (tx) => {
        await ledger.apply(tx, testBill(u.id, constants.billTypes.redeemBonus, 10_000 as never));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const after = await scrape();
    const delta = (type: string) =>
      valueOf(after, 'numa_ledger_bills_total', { type }) -
      valueOf(before, 'numa_ledger_bills_total', { type });
    expect(delta('adjustment')).toBe(2);
    expect(delta('redeemBonus')).toBe(0);
  });

  it('counts orders and payment notifications by provider and outcome (sandbox)', async () => {
    const c = await signIn(t.app, { email: `metricspay${process.pid}@example.com` });
    const before = await scrape();
    const sub = await c.post('/web/alipay/paySubmit', { productid: 'alipay_web_usd_50' });
    expect(sub.body.retcode).toBe(0);
    const ref = new URL(sub.body.data.paymentUrl as string).pathname.split('/').pop()!;
    const post = (body: string, sign = true, provider = 'sandbox') =>
      t.app.inject({
        method: 'POST',
        url: `/pay/notify/${provider}`,
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          [sandboxSignatureHeader]: signSandbox(
            sign ? secret : 'another-secret-0123456789',
            body,
            Math.floor(clock.now() / 1000),
          ),
        },
        payload: body,
      });
    const paid = (id: string, amount = 500_000) =>
      JSON.stringify({ id, type: 'checkout.paid', created: 1, data: { ref, amount, currency: 'usd' } });
    expect((await post(paid('evt_m1'))).json().result).toBe('credited');
    expect((await post(paid('evt_m1'))).json().result).toBe('duplicate');
    expect((await post(paid('evt_m2'))).json().result).toBe('ignored');
    expect((await post(paid('evt_m3'), false)).statusCode).toBe(403);
    expect((await post(paid('evt_m4', 1))).statusCode).toBe(400);
    expect((await post(paid('evt_m5'), true, 'nosuchprovider')).statusCode).toBe(403);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    const notices = (outcome: string) =>
      delta('numa_payment_notifications_total', { provider: 'sandbox', outcome });
    expect(['credited', 'duplicate', 'ignored', 'refused', 'error'].map(notices)).toEqual([1, 1, 1, 2, 0]);
    expect(after.some((s) => s.labels.provider === 'nosuchprovider')).toBe(false);
    expect(
      delta('numa_payment_orders_total', { provider: 'sandbox', method: 'alipay', outcome: 'opened' }),
    ).toBe(1);
    expect(delta('numa_ledger_bills_total', { type: 'recharge' })).toBe(1);
  });

  it('reads the job queue when scraped: due, running and the oldest due age by job, bounded', async () => {
    const now = clock.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    // a name no worker of this app takes, so nothing runs them meanwhile
    await t.db.query(
      `INSERT INTO jobs (name, payload, run_at, max_attempts, locked_by, locked_until, failed_at) VALUES
        ('metrics.probe', '{}', $1, 1, NULL, NULL, NULL),
        ('metrics.probe', '{}', $2, 1, 'w:1:x', $3, NULL),
        ('metrics.probe', '{}', $4, 1, NULL, NULL, NULL),
        ('metrics.probe', '{}', $5, 1, NULL, NULL, NULL),
        ('metrics.probe', '{}', $1, 1, NULL, NULL, $1)`,
      [at(-90_000), at(-60_000), at(30_000), at(-30_000), at(60_000)],
    );
    try {
      const s = await scrape();
      expect(valueOf(s, 'numa_jobs_due', { job: 'metrics.probe' })).toBe(2);
      expect(valueOf(s, 'numa_jobs_running', { job: 'metrics.probe' })).toBe(1);
      expect(valueOf(s, 'numa_jobs_oldest_due_age_seconds', { job: 'metrics.probe' })).toBe(90);
      expect(valueOf(s, 'numa_jobs_queue_truncated')).toBe(0);
      // every job this server runs has its series, 0 when nothing waits
      for (const job of t.app.deps.jobs.names()) {
        expect(
          s.some((x) => x.name === 'numa_jobs_due' && x.labels.job === job),
          job,
        ).toBe(true);
      }
      expect(valueOf(s, 'numa_jobs_due', { job: 'carrier.send' })).toBe(0);
      // the scan is bounded: past its cap the counts are lower bounds (and say so), the oldest still the oldest
      const capped = await metricsRepo.jobQueue(t.db.q, new Date(now), 2);
      expect(capped.truncated).toBe(true);
      expect(capped.rows.find((r) => r.name === 'metrics.probe')).toMatchObject({
        waiting: 1,
        running: 1,
        oldestWaiting: new Date(now - 90_000),
      });
      expect(jobQueueScanCap).toBe(10_000);
    } finally {
      await t.db.query(`DELETE FROM jobs WHERE name = 'metrics.probe'`);
    }
  });

  it('counts code locks (taken, refused, ended), code SMS, and renewals of kept and rented numbers', async () => {
    const a = await user(1);
    await withProfile(a.id);
    const before = await scrape();
    const lock = (app: string, code = 'US') => a.c.get('/web/lockVerificationCodePhone', { app, code });
    const first = await lock('openai', 'GB');
    expect(first.body.retcode).toBe(0);
    const number = first.body.data.phone as string;
    clock.advance(3_000); // the simulated app sends 3 s after the lock
    await t.app.deps.jobs.drain();
    expect((await lock('whatsapp')).body.retcode).toBe(0);
    expect((await lock('telegram')).body.retcode).toBe(0);
    expect((await lock('google')).body.retcode).toBe(400000); // three live locks at most
    clock.advance(3_000);
    await t.app.deps.jobs.drain();
    // the number is A's for a month after its code: kept (subscribed) with its first month's bill
    await t.db.tx((tx) => credit(tx, a.id, 4.4)); // the first month, and the second one
    expect((await a.c.get('/web/subVerificationCodePhone', { app: 'openai', number })).body.retcode).toBe(0);

    // a rented number (first month paid now)
    const r = await user(9);
    await withProfile(r.id);
    await t.db.query(`UPDATE accounts SET tel_code = '1', phone = $2 WHERE id = $1`, [r.id, '2025550177']);
    const plans = (await r.c.get('/web/getPlanList', { code: 'US', type: 'local' })).body.data.planList as {
      planId: number;
      planName: string;
      planRentPeriod: string;
    }[];
    const payg = plans.find((p) => p.planName === 'Pay As You Go' && p.planRentPeriod === 'month')!.planId;
    const phone = (
      await r.c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'US',
        type: 'local',
        telCode: '1',
        areaCode: '303',
      })
    ).body.data.numbers[0] as string;
    const rented = await r.c.post('/web/subVirtualPhone', {
      planId: payg,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(rented.body.retcode).toBe(0);

    // the locks' window ends
    clock.advance(constants.codes.lockMs);
    await t.app.deps.jobs.drain();
    const mid = await scrape();

    // a month on: both renew; another month on: neither can pay
    // (the hourly renewal sweep and the kept number's renewal job are due: one drain runs them)
    clock.advance(32 * 86_400_000);
    await t.app.deps.jobs.drain();
    const renewed = await scrape();
    clock.advance(31 * 86_400_000);
    await t.app.deps.jobs.drain();
    const short = await scrape();

    const d = (s: Sample[], from: Sample[], name: string, labels: Record<string, string>) =>
      valueOf(s, name, labels) - valueOf(from, name, labels);
    expect(d(mid, before, 'numa_code_locks_total', { outcome: 'taken', reason: '' })).toBe(3);
    expect(d(mid, before, 'numa_code_locks_total', { outcome: 'refused', reason: 'limit' })).toBe(1);
    expect(d(mid, before, 'numa_code_sms_total', { outcome: 'charged' })).toBe(3);
    expect(d(mid, before, 'numa_code_locks_ended_total', { reason: 'expired' })).toBe(3);
    expect(d(mid, before, 'numa_ledger_bills_total', { type: 'codeReceive' })).toBe(3);
    expect(d(mid, before, 'numa_ledger_bills_total', { type: 'numberRent' })).toBe(2);

    const renewals = (s: Sample[], from: Sample[], kind: string, outcome: string) =>
      d(s, from, 'numa_renewals_total', { kind, outcome });
    expect(renewals(renewed, mid, 'code_number', 'renewed')).toBe(1);
    expect(renewals(renewed, mid, 'number', 'renewed')).toBe(1);
    expect(d(renewed, mid, 'numa_ledger_bills_total', { type: 'numberRent' })).toBe(2);
    expect(renewals(short, renewed, 'code_number', 'insufficient_balance')).toBe(1);
    expect(renewals(short, renewed, 'number', 'insufficient_balance')).toBe(1);
    expect(renewals(short, before, 'number', 'failed')).toBe(0);
    expect(d(short, renewed, 'numa_ledger_bills_total', { type: 'numberRent' })).toBe(0);
    // the Node process metrics ride along
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(
        short.some((s) => s.name === name),
        name,
      ).toBe(true);
  });

  it('counts a renewal job whose try throws as a failed renewal, and the try as a retry', async () => {
    const before = await scrape();
    // payloads the database refuses (not a number where one is expected): the tries throw
    await t.app.deps.jobs.enqueue(t.db.q, 'numbers.renew', {
      numberId: 'x' as never,
      paymentDate: '2026-01-01',
    });
    await t.app.deps.jobs.enqueue(t.db.q, 'codes.renew', {
      phone: '1',
      app: 'x',
      accountId: 'x' as never,
      due: 0,
    });
    try {
      await t.app.deps.jobs.drain();
      const after = await scrape();
      const d = (name: string, labels: Record<string, string>) =>
        valueOf(after, name, labels) - valueOf(before, name, labels);
      expect(d('numa_job_runs_total', { job: 'numbers.renew', outcome: 'retry' })).toBe(1);
      expect(d('numa_job_runs_total', { job: 'codes.renew', outcome: 'retry' })).toBe(1);
      expect(d('numa_renewals_total', { kind: 'number', outcome: 'failed' })).toBe(1);
      expect(d('numa_renewals_total', { kind: 'code_number', outcome: 'failed' })).toBe(1);
    } finally {
      await t.db.query(
        `DELETE FROM jobs WHERE name IN ('numbers.renew', 'codes.renew') AND last_error IS NOT NULL`,
      );
    }
  });
});
