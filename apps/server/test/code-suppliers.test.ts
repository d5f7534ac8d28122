import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, fromMinor } from '@numa/contract';
import { runAdmin } from '../src/cli/admin';
import { brandFlag, type OpenContext } from '../src/cli/context';
import { loadEnv } from '../src/env';
import { ManualClock } from '../src/lib/clock';
import { createCodeSuppliers } from '../src/providers/codes';
import { FiveSimSupply } from '../src/providers/codes/fiveSim';
import { CodeSupplyError } from '../src/providers/codes/port';
import { maxSupplierPrice } from '../src/providers/codes/price';
import { SmsActivateSupply } from '../src/providers/codes/smsActivate';
import { credit } from './chat-support';
import { client, startTestApp, testDbKind, type TestApp } from './helpers';
import { startFiveSim, startSmsActivate, supplierFixture } from './fixtures/code-suppliers-standin';

const saKey = 'sa-key-0123456789';
const fsToken = 'eyJhbGciOiJSUzUxMiJ9.fivesim-test-token';

type Expect = {
  kind?: string;
  reason?: string;
  action?: string;
  pauseUntil?: string;
  temporary?: boolean;
  poll?: string;
  finish?: string;
  retryAfterMs?: number;
};
type Case = { status: number; body: string; expect: Expect };

/** What a call made of a documented answer: an error's kind and reason, or the result. */
async function outcome<T>(p: Promise<T>): Promise<{ ok: T } | { err: CodeSupplyError }> {
  try {
    return { ok: await p };
  } catch (err) {
    if (!(err instanceof CodeSupplyError)) throw err;
    return { err };
  }
}

function expectError(r: { ok: unknown } | { err: CodeSupplyError }, e: Expect, what: string) {
  expect('err' in r, `${what}: should be refused`).toBe(true);
  if (!('err' in r)) return;
  expect(r.err.kind, what).toBe(e.kind);
  if (e.reason) expect(r.err.reason, what).toBe(e.reason);
  if (e.action) expect(r.err.action ?? '', what).toContain(e.action);
  if (e.pauseUntil) expect(new Date(r.err.pauseUntil!).toISOString(), what).toBe(e.pauseUntil);
  if (e.temporary !== undefined) expect(r.err.temporary, what).toBe(e.temporary);
}

describe('code supplier prices', () => {
  it('sends the most a supplier may charge from the fee, in integer arithmetic, rounded down', () => {
    expect(maxSupplierPrice({ amount: 2500 as never, currency: 'usd' }, { usd: '100' })).toBe('25.00');
    expect(maxSupplierPrice({ amount: 2500 as never, currency: 'usd' }, { usd: '92.37' })).toBe('23.09');
    expect(maxSupplierPrice({ amount: 10_050 as never, currency: 'cny' }, { cny: '12.5' })).toBe('12.56');
    expect(maxSupplierPrice({ amount: 1 as never, currency: 'usd' }, { usd: '0.000001' })).toBe('0.00');
    expect(maxSupplierPrice({ amount: 2500 as never, currency: 'cny' }, { usd: '100' })).toBeNull();
  });

  it('refuses to start a real supplier without its key or its price rates', () => {
    const env = (o: Record<string, string>) => loadEnv({ NODE_ENV: 'test', ...o });
    expect(() => createCodeSuppliers(env({ CODE_SUPPLIER: 'smsactivate' }))).toThrow(/CODE_SUPPLIER_API_KEY/);
    expect(() =>
      createCodeSuppliers(env({ CODE_SUPPLIER: 'smsactivate', CODE_SUPPLIER_API_KEY: saKey })),
    ).toThrow(/CODE_SUPPLIER_PRICE_RATES/);
    expect(() =>
      createCodeSuppliers(
        env({
          CODE_SUPPLIER: 'smsactivate',
          CODE_SUPPLIER_API_KEY: saKey,
          CODE_SUPPLIER_PRICE_RATES: 'usd=90',
          CODE_SUPPLIER_FAILOVER: '5sim',
        }),
      ),
    ).toThrow(/FIVESIM_API_KEY/);
    const both = createCodeSuppliers(
      env({
        CODE_SUPPLIER: 'smsactivate',
        CODE_SUPPLIER_API_KEY: saKey,
        CODE_SUPPLIER_PRICE_RATES: 'usd=90,cny=12.5',
        CODE_SUPPLIER_FAILOVER: '5sim',
        FIVESIM_API_KEY: fsToken,
        FIVESIM_PRICE_RATES: 'usd=90',
      }),
    );
    expect(both.map((s) => s.name)).toEqual(['smsactivate', '5sim']);
    expect(() => loadEnv({ CODE_SUPPLIER_FAILOVER: 'onlinesim' })).toThrow(/not smsactivate or 5sim/);
  });
});

describe('SMS-Activate: every documented answer', () => {
  let sa: Awaited<ReturnType<typeof startSmsActivate>>;
  const answers = supplierFixture<Record<string, Case[]>>('sms-activate', 'answers');
  const fee = { amount: 2500 as never, currency: 'usd' as const };
  const adapter = () =>
    new SmsActivateSupply({ url: sa.url, apiKey: saKey, pollEveryMs: 5000, priceRates: { usd: '100' } });
  beforeAll(async () => {
    sa = await startSmsActivate(saKey);
  });
  afterAll(() => sa.close());

  it('buys with getNumberV2 and maxPrice from the fee, and reads what it cost', async () => {
    sa.answers.getNumberV2 = {
      status: 200,
      body: JSON.stringify(supplierFixture('sms-activate', 'get-number-v2')),
    };
    const got = await adapter().acquire({ app: 'whatsapp', country: 'US', fee });
    expect(got).toEqual({ ref: '635468024', phone: '12065550142', cost: 12.5, maxPrice: '25.00' });
    expect(sa.calls.at(-1)).toMatchObject({
      action: 'getNumberV2',
      service: 'wa',
      country: '187',
      maxPrice: '25.00',
    });
  });

  for (const c of answers.getNumberV2!)
    it(`getNumberV2 answered ${c.status} ${c.body.slice(0, 40)}`, async () => {
      sa.answers.getNumberV2 = { status: c.status, body: c.body };
      expectError(
        await outcome(adapter().acquire({ app: 'whatsapp', country: 'US', fee })),
        c.expect,
        c.body,
      );
    });

  it('reads the code and whole text of getStatusV2, and every documented status answer', async () => {
    sa.answers.setStatus = { status: 200, body: 'ACCESS_RETRY_GET' };
    sa.answers.getStatusV2 = {
      status: 200,
      body: JSON.stringify(supplierFixture('sms-activate', 'get-status-v2')),
    };
    expect(await adapter().poll('635468024')).toEqual({
      status: 'code',
      code: '482913',
      text: "<#> Your WhatsApp code: 482-913\nDon't share this code with others",
    });
    // the activation is asked for another SMS while the lock lives
    expect(sa.calls.at(-1)).toMatchObject({ action: 'setStatus', id: '635468024', status: '3' });
    for (const c of answers.getStatusV2!) {
      sa.answers.getStatusV2 = { status: c.status, body: c.body };
      const r = await outcome(adapter().poll('635468024'));
      if (c.expect.poll) expect('ok' in r && r.ok, c.body).toEqual({ status: c.expect.poll });
      else expectError(r, c.expect, c.body);
    }
  });

  it('ends activations on every documented setStatus answer; an early cancel is asked again after the two minutes', async () => {
    for (const c of answers.setStatus!) {
      sa.answers.setStatus = { status: c.status, body: c.body };
      const r = await outcome(adapter().finished({ ref: '635468024', outcome: 'cancel' }));
      if (c.expect.finish === 'ok') expect('ok' in r && r.ok, c.body).toBeUndefined();
      else if (c.expect.finish === 'retry')
        expect('ok' in r && r.ok, c.body).toEqual({ retryAfterMs: c.expect.retryAfterMs });
      else expectError(r, c.expect, c.body);
    }
    expect(sa.calls.at(-1)).toMatchObject({ action: 'setStatus', status: '8' });
  });

  it('speaks V1 to a compatible server without the V2 actions (BAD_ACTION)', async () => {
    delete sa.answers.getNumberV2;
    delete sa.answers.getStatusV2;
    sa.answers.getNumber = { status: 200, body: 'ACCESS_NUMBER:7012345:12065550188' };
    sa.answers.getStatus = { status: 200, body: 'STATUS_OK:123456' };
    sa.answers.getFullSms = { status: 200, body: 'FULL_SMS:Your code is 123456' };
    sa.answers.setStatus = { status: 200, body: 'ACCESS_RETRY_GET' };
    const a = adapter();
    expect(await a.acquire({ app: 'whatsapp', country: 'US', fee })).toEqual({
      ref: '7012345',
      phone: '12065550188',
      maxPrice: '25.00',
    });
    expect(await a.poll('7012345')).toEqual({ status: 'code', code: '123456', text: 'Your code is 123456' });
    expect(sa.calls.slice(-5).map((c) => c.action)).toEqual([
      'getNumberV2',
      'getNumber',
      'getStatus',
      'getFullSms',
      'setStatus',
    ]);
  });
});

describe('5sim: every documented answer', () => {
  let fs: Awaited<ReturnType<typeof startFiveSim>>;
  const errors = supplierFixture<Record<string, Case[]>>('5sim', 'errors');
  const fee = { amount: 2500 as never, currency: 'usd' as const };
  const adapter = () =>
    new FiveSimSupply({ url: fs.url, token: fsToken, pollEveryMs: 5000, priceRates: { usd: '100' } });
  beforeAll(async () => {
    fs = await startFiveSim(fsToken);
  });
  afterAll(() => fs.close());

  it('buys with the bearer token and maxPrice, checks, finishes, cancels, bans and reads prices', async () => {
    const order = supplierFixture('5sim', 'buy-activation');
    fs.answers.buy = { status: 200, body: JSON.stringify(order) };
    expect(await adapter().acquire({ app: 'whatsapp', country: 'US', fee })).toEqual({
      ref: '11631253',
      phone: '12065550177',
      cost: 21,
      maxPrice: '25.00',
    });
    expect(fs.calls.at(-1)).toEqual({
      path: '/user/buy/activation/usa/any/whatsapp',
      query: { maxPrice: '25.00' },
      auth: `Bearer ${fsToken}`,
    });
    fs.answers.check = { status: 200, body: JSON.stringify(order) };
    expect(await adapter().poll('11631253')).toEqual({ status: 'wait' });
    fs.answers.check = { status: 200, body: JSON.stringify(supplierFixture('5sim', 'check-received')) };
    expect(await adapter().poll('11631253')).toEqual({
      status: 'code',
      code: '771204',
      text: "<#> Your WhatsApp code: 771-204\nDon't share this code with others",
    });
    for (const status of ['CANCELED', 'TIMEOUT', 'BANNED']) {
      fs.answers.check = { status: 200, body: JSON.stringify({ ...order, status }) };
      expect(await adapter().poll('11631253'), status).toEqual({ status: 'cancelled' });
    }
    for (const [outcome, verb] of [
      ['done', 'finish'],
      ['cancel', 'cancel'],
      ['ban', 'ban'],
    ] as const) {
      fs.answers[verb] = { status: 200, body: JSON.stringify({ ...order, status: 'FINISHED' }) };
      await adapter().finished({ ref: '11631253', outcome });
      expect(fs.calls.at(-1)!.path).toBe(`/user/${verb}/11631253`);
    }
    fs.answers.prices = { status: 200, body: JSON.stringify(supplierFixture('5sim', 'prices')) };
    expect(await adapter().prices({ app: 'whatsapp', country: 'US' })).toEqual({ cost: 21, count: 152 });
    expect(fs.calls.at(-1)).toMatchObject({
      path: '/guest/prices',
      query: { country: 'usa', product: 'whatsapp' },
    });
    expect(await adapter().prices({ app: 'telegram', country: 'US' })).toBeNull();
  });

  for (const c of errors.buy!)
    it(`buy answered ${c.status} "${c.body.slice(0, 30)}"`, async () => {
      fs.answers.buy = { status: c.status, body: c.body };
      expectError(
        await outcome(adapter().acquire({ app: 'whatsapp', country: 'US', fee })),
        c.expect,
        c.body,
      );
    });

  it('reads the check and cancel errors: a gone order is over, an order with an SMS is finished instead', async () => {
    for (const c of errors.check!) {
      fs.answers.check = { status: c.status, body: c.body };
      expect(await adapter().poll('11631253'), c.body).toEqual({ status: c.expect.poll });
    }
    fs.answers.finish = { status: 200, body: JSON.stringify(supplierFixture('5sim', 'check-received')) };
    for (const c of errors.cancel!) {
      fs.answers.cancel = { status: c.status, body: c.body };
      const before = fs.calls.length;
      const r = await outcome(adapter().finished({ ref: '11631253', outcome: 'cancel' }));
      if (c.expect.finish === 'ok') expect('ok' in r, c.body).toBe(true);
      else if (c.expect.finish === 'finished instead')
        expect(fs.calls.slice(before).map((x) => x.path)).toEqual([
          '/user/cancel/11631253',
          '/user/finish/11631253',
        ]);
      else expectError(r, c.expect, c.body);
    }
    // a refused token
    await expect(
      new FiveSimSupply({ url: fs.url, token: 'wrong', pollEveryMs: 5000 }).poll('11631253'),
    ).rejects.toMatchObject({ kind: 'refused', reason: 'HTTP_401' });
  });
});

describe(`failover between suppliers through the app (${testDbKind})`, () => {
  let t: TestApp;
  let sa: Awaited<ReturnType<typeof startSmsActivate>>;
  let fs: Awaited<ReturnType<typeof startFiveSim>>;
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 8, 0, 0));
  let seq = 0;

  async function user(balance: number) {
    const [{ id }] = (await t.db.query<{ id: number }>(
      `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
      [`suppliers${process.pid}x${seq++}@example.com`],
    )) as [{ id: number }];
    const token = await t.db.tx(async (tx) => {
      if (balance) await credit(tx, id, balance);
      return (await t.app.deps.sessions.start(tx, id, {})).token;
    });
    const c = client(t.app, 'localhost');
    c.setToken(token);
    return { id, c };
  }
  async function balanceOf(id: number) {
    const [row] = await t.db.query<{ balance: number; bills: number; codes: number }>(
      `SELECT a.balance::float8 AS balance,
              COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = a.id), 0)::float8 AS bills,
              (SELECT count(*) FROM ledger WHERE account_id = a.id AND type = $2)::int AS codes
         FROM accounts a WHERE a.id = $1`,
      [id, constants.billTypes.codeReceive],
    );
    expect(row!.bills).toBe(row!.balance); // the ledger invariant: sum of bills = balance
    return { balance: fromMinor(row!.balance as never), codeBills: row!.codes };
  }
  const tick = async () => {
    clock.advance(5_000);
    await t.app.deps.jobs.drain();
  };

  beforeAll(async () => {
    sa = await startSmsActivate(saKey);
    fs = await startFiveSim(fsToken);
    t = await startTestApp({
      clock,
      jobs: { pollMs: 60_000 },
      codeSupply: [
        new SmsActivateSupply({ url: sa.url, apiKey: saKey, pollEveryMs: 5000, priceRates: { usd: '100' } }),
        new FiveSimSupply({ url: fs.url, token: fsToken, pollEveryMs: 5000, priceRates: { usd: '100' } }),
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
    await sa?.close();
    await fs?.close();
  });

  it('SMS-Activate has no number, 5sim serves: the code received through 5sim is charged once', async () => {
    const a = await user(1);
    sa.answers.getNumberV2 = { status: 200, body: 'NO_NUMBERS' };
    const order = supplierFixture('5sim', 'buy-activation');
    fs.answers.buy = { status: 200, body: JSON.stringify(order) };
    fs.answers.check = { status: 200, body: JSON.stringify(order) };
    const locked = await a.c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US' });
    expect(locked.body.retcode, JSON.stringify(locked.body)).toBe(0);
    expect(locked.body.data).toMatchObject({ phone: '12065550177', codeRate: 0.25, canSub: 0 });
    expect(sa.calls.at(-1)).toMatchObject({ action: 'getNumberV2', maxPrice: '25.00' });
    expect(fs.calls.at(-1)).toMatchObject({
      path: '/user/buy/activation/usa/any/whatsapp',
      query: { maxPrice: '25.00' },
    });
    const [lock] = await t.db.query(`SELECT supplier, supplier_ref FROM code_locks WHERE account_id = $1`, [
      a.id,
    ]);
    expect(lock).toEqual({ supplier: '5sim', supplier_ref: '11631253' });

    await tick();
    expect(await balanceOf(a.id)).toEqual({ balance: 1, codeBills: 0 });
    // the code arrives at 5sim: stored and charged once, however often 5sim repeats it
    fs.answers.check = { status: 200, body: JSON.stringify(supplierFixture('5sim', 'check-received')) };
    for (let i = 0; i < 3; i++) await tick();
    const poll = await a.c.get('/web/getVerificationCodeSmsList', {
      app: 'whatsapp',
      number: '12065550177',
      count: 10,
    });
    expect(poll.body.data.smsList).toMatchObject([{ code: '771204', charge: 0.25 }]);
    expect(await balanceOf(a.id)).toEqual({ balance: 0.75, codeBills: 1 });
    // a second SMS heard ten times at once (several servers' polls): stored and charged once
    const second = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.deps.codes.receive({
          source: '5sim',
          messageId: '11631253:660021',
          phone: '12065550177',
          app: 'whatsapp',
          text: 'Your WhatsApp code: 660-021',
        }),
      ),
    );
    expect(second.filter((r) => r.status === 'charged')).toHaveLength(1);
    expect(second.filter((r) => r.status === 'duplicate')).toHaveLength(9);
    expect(await balanceOf(a.id)).toEqual({ balance: 0.5, codeBills: 2 });
    // Done: the order is finished at 5sim
    fs.answers.finish = { status: 200, body: JSON.stringify({ ...order, status: 'FINISHED' }) };
    await a.c.get('/web/getVerificationCodeSmsList', { app: 'whatsapp', number: '12065550177', count: 0 });
    expect(fs.calls.at(-1)!.path).toBe('/user/finish/11631253');
    expect(await balanceOf(a.id)).toEqual({ balance: 0.5, codeBills: 2 });

    const status = await t.app.deps.codesOperator.supplierStatus();
    const saState = status.suppliers.find((s) => s.name === 'smsactivate')!.state!;
    expect(saState).toMatchObject({
      lastKind: 'no_numbers',
      lastReason: 'NO_NUMBERS',
      consecutiveFailures: 1,
    });
    expect(status.suppliers.find((s) => s.name === '5sim')!.state).toMatchObject({ consecutiveFailures: 0 });
    expect(status.events[0]).toMatchObject({
      supplier: 'smsactivate',
      operation: 'acquire',
      app: 'whatsapp',
      country: 'US',
    });
  });

  it('a number above the quote at both suppliers: refused at SMS-Activate, given back to 5sim, the user gets 500000 and pays nothing', async () => {
    const b = await user(1);
    sa.answers.getNumberV2 = { status: 200, body: 'WRONG_MAX_PRICE:30.00' };
    const order = {
      ...supplierFixture('5sim', 'buy-activation'),
      id: 11631999,
      phone: '+12065550179',
      price: 30,
    };
    fs.answers.buy = { status: 200, body: JSON.stringify(order) };
    fs.answers.cancel = { status: 200, body: JSON.stringify({ ...order, status: 'CANCELED' }) };
    const none = await b.c.get('/web/lockVerificationCodePhone', { app: 'telegram', code: 'US' });
    expect([none.status, none.body.retcode]).toEqual([400, 500000]);
    // telegram's fee is 0.2: neither may charge more than 20.00
    expect(sa.calls.at(-1)).toMatchObject({ action: 'getNumberV2', maxPrice: '20.00' });
    expect(fs.calls.map((c) => c.path)).toContain('/user/cancel/11631999');
    expect(await balanceOf(b.id)).toEqual({ balance: 1, codeBills: 0 });
    expect(
      await t.db.query(`SELECT count(*)::int AS n FROM code_locks WHERE account_id = $1`, [b.id]),
    ).toEqual([{ n: 0 }]);
    const events = (await t.app.deps.codesOperator.supplierStatus()).events;
    expect(events.slice(0, 2).map((e) => [e.supplier, e.kind, e.reason])).toEqual([
      ['5sim', 'price', 'ABOVE_LIMIT'],
      ['smsactivate', 'price', 'WRONG_MAX_PRICE'],
    ]);
  });

  it('pauses a supplier whose account refuses (402 NO_BALANCE), follows the order the operator sets, and shows it all in supplier-status', async () => {
    const c = await user(1);
    // these apps' fees are 0.10–0.15: numbers at 9 (within any of their limits)
    const order = { ...supplierFixture('5sim', 'buy-activation'), price: 9 };
    sa.answers.getNumberV2 = { status: 402, body: 'NO_BALANCE' };
    let n = 0;
    fs.answers.buy = () => ({
      status: 200,
      body: JSON.stringify({ ...order, id: 5000 + n, phone: `+1206555030${n++}` }),
    });
    fs.answers.cancel = { status: 200, body: JSON.stringify({ ...order, status: 'CANCELED' }) };
    const first = await c.c.get('/web/lockVerificationCodePhone', { app: 'google', code: 'US' });
    expect(first.body.data?.phone, JSON.stringify(first.body)).toBe('12065550300');
    // paused: the next lock does not ask SMS-Activate at all
    const asked = sa.calls.length;
    const second = await c.c.get('/web/lockVerificationCodePhone', { app: 'discord', code: 'US' });
    expect(second.body.data.phone).toBe('12065550301');
    expect(sa.calls.length).toBe(asked);

    const open: OpenContext = async (flags, out) => ({
      env: t.app.deps.env,
      codesOperator: t.app.deps.codesOperator,
      demo: t.app.deps.demo,
      media: t.app.deps.media,
      numbers: t.app.deps.numbers,
      operator: t.app.deps.operator,
      payments: t.app.deps.payments,
      review: t.app.deps.review,
      brand: brandFlag(flags, t.app.deps.env),
      out,
      close: async () => {},
    });
    const admin = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(argv, { out: (l = '') => out.push(l), err: (l) => err.push(l) }, open);
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const status = await admin('codes', 'supplier-status');
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/smsactivate: PAUSED until/);
    expect(status.out).toContain('refused: NO_BALANCE');
    expect(status.out).toContain('top up the SMS-Activate account');
    expect(status.out).toMatch(/5sim: ok/);

    // the operator tops up and resumes it, and puts 5sim first for Telegram in the US
    expect((await admin('codes', 'supplier-resume', 'smsactivate')).out).toContain('asked again');
    expect((await admin('codes', 'supplier-order', 'telegram', 'us', '5sim,smsactivate')).out).toContain(
      'telegram in US: 5sim → smsactivate',
    );
    expect((await admin('codes', 'supplier-order', 'telegram', 'US', 'onlinesim')).code).not.toBe(0);
    sa.answers.getNumberV2 = {
      status: 200,
      body: JSON.stringify({ ...supplierFixture('sms-activate', 'get-number-v2'), activationCost: '9.00' }),
    };
    const before = sa.calls.length;
    const third = await c.c.get('/web/lockVerificationCodePhone', { app: 'telegram', code: 'US' });
    expect(third.body.data.phone).toBe('12065550302');
    expect(sa.calls.length).toBe(before);
    // elsewhere the configured order holds: SMS-Activate first again
    const other = await user(1); // (an account holds at most three live locks)
    const fourth = await other.c.get('/web/lockVerificationCodePhone', { app: 'tiktok', code: 'US' });
    expect(fourth.body.data.phone).toBe('12065550142');
    expect((await admin('codes', 'supplier-status')).out).toContain('telegram US: 5sim → smsactivate');
    expect(await balanceOf(c.id)).toEqual({ balance: 1, codeBills: 0 });
  });

  it('asks SMS-Activate again to cancel after its two minutes (EARLY_CANCEL_DENIED), through the jobs queue', async () => {
    const d = await user(1);
    await t.app.deps.codesOperator.clearSupplierOrder('telegram', 'US');
    sa.answers.getNumberV2 = {
      status: 200,
      body: JSON.stringify({
        ...supplierFixture('sms-activate', 'get-number-v2'),
        activationId: '777',
        phoneNumber: '12065550155',
        activationCost: '5.00',
      }),
    };
    sa.answers.getStatusV2 = { status: 200, body: 'STATUS_WAIT_CODE' };
    let cancels = 0;
    sa.answers.setStatus = (q) =>
      q.status === '8'
        ? { status: 200, body: cancels++ === 0 ? 'EARLY_CANCEL_DENIED' : 'ACCESS_CANCEL' }
        : { status: 200, body: 'ACCESS_READY' };
    const locked = await d.c.get('/web/lockVerificationCodePhone', { app: 'amazon', code: 'US' });
    expect(locked.body.data.phone).toBe('12065550155');
    // the user gives the number back at once: SMS-Activate refuses to cancel in the first two minutes
    await d.c.get('/web/getVerificationCodeSmsList', { app: 'amazon', number: '12065550155', count: 0 });
    expect(cancels).toBe(1);
    clock.advance(60_000);
    await t.app.deps.jobs.drain();
    expect(cancels).toBe(1);
    clock.advance(61_000);
    await t.app.deps.jobs.drain();
    expect(cancels).toBe(2);
    expect(
      sa.calls.filter((c) => c.action === 'setStatus' && c.id === '777' && c.status === '8').length,
    ).toBe(2);
    expect(await balanceOf(d.id)).toEqual({ balance: 1, codeBills: 0 });
  });
});
