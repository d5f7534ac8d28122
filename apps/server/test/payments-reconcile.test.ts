import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, minor } from '@numa/contract';
import { runAdmin } from '../src/cli/admin';
import { brandFlag, contextOn, type OpenContext } from '../src/cli/context';
import { openPostgres } from '../src/db/postgres';
import { ManualClock } from '../src/lib/clock';
import { idemKey } from '../src/lib/idem';
import { sandboxSignatureHeader, signSandbox } from '../src/providers/payments/sandbox';
import { ledger } from '../src/repositories/ledger';
import type { PaymentProvider, ProviderTransaction } from '../src/providers/payments/port';
import { classify, createReconciler } from '../src/services/payments/reconcile';
import { rawQuery, signIn, startTestApp, testBill, testDbKind, type TestApp } from './helpers';
import { StripeFake, stripeEvent } from './stripe-fake';

/*
 * Reconciliation (issue 18 §4): every provider payment, refund and dispute of a range against our
 * orders, bills and refund rows, in four classes, from the provider's API (Stripe, against a local
 * stand-in driven through the SDK's list calls) or from the notifications we stored (the sandbox);
 * the command on both databases, and the daily job that logs the differences.
 */

const day = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);

/** A log stream the tests read (JSON lines of pino). */
function logCapture() {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: { level: 'info', stream } };
}

let phoneSeq = 0;
async function newUser(app: TestApp) {
  const c = await signIn(app.app, {
    telCode: '1',
    phone: `41555${String(process.pid % 100).padStart(2, '0')}${String(phoneSeq++).padStart(3, '0')}`,
  });
  const phone = (await c.get('/web/getAccountInfo')).body.data.phone as string;
  const [row] = await app.db.query<{ id: number }>(`SELECT id FROM accounts WHERE phone = $1`, [phone]);
  return { c, accountId: row!.id };
}

/** The ledger invariant: an account's bills add up to its balance. */
async function ledgerAddsUp(app: TestApp, accountId: number) {
  const [row] = await app.db.query<{ balance: number; total: number }>(
    `SELECT a.balance, COALESCE((SELECT SUM(charge) FROM ledger WHERE account_id = a.id), 0)::bigint AS total FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  expect(Number(row!.total)).toBe(Number(row!.balance));
}

function admin(app: TestApp, open?: OpenContext) {
  const viaServer: OpenContext = async (flags, out) => ({
    ...app.app.deps,
    brand: brandFlag(flags, app.app.deps.env),
    out,
    close: async () => {},
  });
  return async (...argv: string[]) => {
    const out: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (l = '') => out.push(l), err: (l) => out.push(l) },
      open ?? viaServer,
    );
    return { code, text: out.join('\n') };
  };
}

/** The lines of a report of one class, e.g. 'missing on our side'. */
const linesOf = (text: string, label: string) =>
  text
    .split('\n')
    .filter((l) => new RegExp(`^\\s+${label}\\s{2,}`).test(l))
    .map((l) => l.trim());

it('classifies each item by its two sides', () => {
  const side = (amount: number, effective: boolean) => ({ amount: minor(amount), status: 'x', effective });
  expect(classify(side(10, true), side(10, true))).toBe('matched');
  expect(classify(side(10, true), side(10, false))).toBe('missingOurs');
  expect(classify(side(10, true), null)).toBe('missingOurs');
  expect(classify(side(10, false), side(10, true))).toBe('missingTheirs');
  expect(classify(null, side(10, true))).toBe('missingTheirs');
  expect(classify(side(9, true), side(10, false))).toBe('amountDiffers');
  expect(classify(side(9, true), side(10, true))).toBe('amountDiffers');
  expect(classify(side(10, false), side(10, false))).toBe('matched');
  expect(classify(side(10, false), null)).toBeNull();
});

describe(`reconciliation from the stored notifications: the sandbox (${testDbKind})`, () => {
  const secret = 'test-sandbox-secret-reconcile-01';
  const clock = new ManualClock();
  const logs = logCapture();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      clock,
      logger: logs.logger,
      envOverrides: { PAYMENT_SANDBOX_SECRET: secret, PAYMENT_DAILY_ATTEMPTS: '100' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  let seq = 0;
  const notify = async (type: string, data: Record<string, unknown>, host = 'localhost') => {
    const body = JSON.stringify({
      id: `evt_r${seq++}`,
      type,
      created: Math.floor(clock.now() / 1000),
      data: { currency: 'usd', ...data },
    });
    return t.app.inject({
      method: 'POST',
      url: '/pay/notify/sandbox',
      headers: {
        host,
        'content-type': 'application/json',
        [sandboxSignatureHeader]: signSandbox(secret, body, Math.floor(clock.now() / 1000)),
      },
      payload: body,
    });
  };
  const order = async (u: Awaited<ReturnType<typeof newUser>>, productid = 'card_web_usd_10') => {
    const r = await u.c.post('/web/paySubmit', { payment_method: 'creditCard', productid });
    const { orderId, paymentUrl } = r.body.data as { orderId: string; paymentUrl: string };
    return { orderId, ref: new URL(paymentUrl).pathname.split('/').pop()! };
  };

  it('lists matched, missing on our side, missing on theirs and amount differs, by the command on this database and in a process of its own, and the daily job logs the differences', async () => {
    const u = await newUser(t);
    // matched: a payment and its refund, both told and booked
    const ok = await order(u);
    expect((await notify('checkout.paid', { ref: ok.ref, amount: 100_000 })).json().result).toBe('credited');
    expect(
      (
        await notify('refund.updated', {
          ref: ok.ref,
          refundId: 'sbxre_ok',
          status: 'succeeded',
          amount: 20_000,
        })
      ).json().result,
    ).toBe('debited');
    // missing on our side: the provider says paid, we refused it (sent to another brand's host)
    const lost = await order(u);
    expect(
      (await notify('checkout.paid', { ref: lost.ref, amount: 100_000 }, 'wephone.localhost')).statusCode,
    ).toBe(400);
    // … and a refund we recorded but could not debit (more than was paid)
    expect(
      (
        await notify('refund.updated', {
          ref: ok.ref,
          refundId: 'sbxre_big',
          status: 'succeeded',
          amount: 90_000,
        })
      ).json().result,
    ).toBe('recorded');
    // amount differs: the provider says 9.99 arrived for an order of 10
    const short = await order(u);
    expect((await notify('checkout.paid', { ref: short.ref, amount: 99_900 })).statusCode).toBe(400);
    // missing on theirs: an order booked as paid that the provider never told of
    const ghost = await order(u);
    await t.db.tx(async (tx) => {
      await rawQuery(tx, `UPDATE payment_orders SET status = 'paid' WHERE id = $1`, [ghost.orderId]);
      await ledger.apply(
        tx,
        testBill(
          u.accountId,
          constants.billTypes.recharge,
          minor(100_000),
          idemKey('pay', Number(ghost.orderId)),
        ),
      );
    });
    // a pending order nobody paid: nothing to report
    await order(u);
    await ledgerAddsUp(t, u.accountId);

    const report = await admin(t)('payment', 'reconcile', '--from', today(), '--to', today());
    expect(report.code, report.text).toBe(0);
    expect(report.text).toContain('sandbox (the notifications we stored)');
    expect(
      linesOf(report.text, 'matched').map((l) =>
        l
          .split(/\s{2,}/)
          .slice(1, 3)
          .join(' '),
      ),
    ).toEqual([`payment ${ok.ref}`, 'refund sbxre_ok']);
    const ours = linesOf(report.text, 'missing on our side');
    expect(ours).toHaveLength(2);
    expect(ours[0]).toContain(
      `payment  ${lost.ref}  order #${lost.orderId}  theirs 10 usd paid  ours 10 pending`,
    );
    expect(ours[1]).toContain('refund   sbxre_big');
    expect(ours[1]).toContain('excess, not debited');
    expect(linesOf(report.text, 'missing on theirs')).toEqual([
      expect.stringContaining(`payment  ${ghost.ref}  order #${ghost.orderId}  theirs -  ours 10 paid`),
    ]);
    expect(linesOf(report.text, 'amount differs')).toEqual([
      expect.stringContaining(
        `payment  ${short.ref}  order #${short.orderId}  theirs 9.99 usd paid  ours 10 pending`,
      ),
    ]);
    expect(report.text).toContain(
      'matched: 2, missing on our side: 2, missing on theirs: 1, amount differs: 1',
    );
    // nothing on another day; bad ranges are refused
    expect(
      (await admin(t)('payment', 'reconcile', '--from', '2020-01-01', '--to', '2020-01-02')).text,
    ).toContain('matched: 0, missing on our side: 0, missing on theirs: 0, amount differs: 0');
    expect((await admin(t)('payment', 'reconcile', '--from', today())).code).toBe(1);
    expect((await admin(t)('payment', 'reconcile', '--from', '2026-02-30', '--to', today())).code).toBe(1);
    expect((await admin(t)('payment', 'reconcile', '--from', today(), '--to', '2020-01-01')).code).toBe(1);
    expect(
      (await admin(t)('payment', 'reconcile', '--from', today(), '--to', today(), '--provider', 'stripe'))
        .code,
    ).toBe(1);

    // the same command in a process of its own on PostgreSQL (as `npm run admin` runs there)
    if (testDbKind === 'postgres') {
      const [{ schema }] = (await t.db.query<{ schema: string }>(`SELECT current_schema() AS schema`)) as [
        { schema: string },
      ];
      const own = await admin(t, async (_f, out) =>
        contextOn(t.app.deps.env, await openPostgres(t.db.pgUrl!, { schema, max: 2 }), 'numa', out),
      )('payment', 'reconcile', '--from', today(), '--to', today());
      expect(own.code, own.text).toBe(0);
      expect(own.text).toBe(report.text);
    }

    // the daily job, at 04:00 UTC the next day, reconciles today and logs the differences
    const now = clock.now();
    clock.set(now - (now % day) + day + 4 * 3_600_000 + 1000);
    await t.app.deps.jobs.drain();
    const warned = logs.lines.filter((l) => l.msg === 'payment reconciliation found differences');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      level: 40,
      provider: 'sandbox',
      source: 'events',
      differences: 4,
      counts: { matched: 2, missingOurs: 2, missingTheirs: 1, amountDiffers: 1 },
    });
    expect((warned[0]!.items as { class: string; id: string }[]).map((i) => [i.class, i.id]).sort()).toEqual(
      [
        ['amountDiffers', short.ref],
        ['missingOurs', lost.ref],
        ['missingOurs', 'sbxre_big'],
        ['missingTheirs', ghost.ref],
      ].sort(),
    );
    // once a day: draining again the same day runs nothing more
    await t.app.deps.jobs.drain();
    expect(logs.lines.filter((l) => l.msg === 'payment reconciliation found differences')).toHaveLength(1);
  });

  it('matches a provider that lists the payments themselves (PayPal: captures, statuses S and V) by the payment id the order recorded', async () => {
    const u = await newUser(t);
    const a = await order(u);
    const b = await order(u);
    for (const [o, capture] of [
      [a, 'CAP-A'],
      [b, 'CAP-B'],
    ] as const) {
      expect((await notify('checkout.paid', { ref: o.ref, amount: 100_000 })).json().result).toBe('credited');
      await rawQuery(t.db.q, `UPDATE payment_orders SET payment_ref = $2 WHERE id = $1`, [
        o.orderId,
        capture,
      ]);
    }
    const at = new Date();
    const listed: ProviderTransaction[] = [
      {
        kind: 'payment',
        id: 'CAP-A',
        paymentRef: 'CAP-A',
        amount: minor(100_000),
        currency: 'usd',
        status: 'S',
        at,
      },
      // reversed at the provider after we credited it
      {
        kind: 'payment',
        id: 'CAP-B',
        paymentRef: 'CAP-B',
        amount: minor(100_000),
        currency: 'usd',
        status: 'V',
        at,
      },
      // a payment no order of ours knows
      {
        kind: 'payment',
        id: 'CAP-X',
        paymentRef: 'CAP-X',
        amount: minor(50_000),
        currency: 'usd',
        status: 'S',
        at,
      },
    ];
    const paypalLike = {
      name: 'sandbox',
      listTransactions: async () => listed,
    } as unknown as PaymentProvider;
    const dayStart = new Date(at.getTime() - (at.getTime() % day));
    const report = await createReconciler({ db: t.db }).run(
      paypalLike,
      dayStart,
      new Date(dayStart.getTime() + day),
    );
    expect(report.source).toBe('api');
    const classOf = (id: string) => report.items.find((i) => i.id === id)?.class;
    expect(classOf(a.ref)).toBe('matched');
    expect(classOf(b.ref)).toBe('missingTheirs');
    expect(classOf('CAP-X')).toBe('missingOurs');
    await ledgerAddsUp(t, u.accountId);
  });
});

describe(`reconciliation from Stripe's API (${testDbKind})`, () => {
  const webhookSecret = 'whsec_test_reconcile_0123456789';
  const fake = new StripeFake();
  let s: TestApp;
  beforeAll(async () => {
    await fake.start();
    s = await startTestApp({
      envOverrides: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: fake.key,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE_URL: fake.url,
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    await fake.stop();
  });

  let evt = 0;
  const post = async (type: string, object: Record<string, unknown>) => {
    const e = stripeEvent(webhookSecret, type, object, `evt_rc${evt++}`);
    const res = await s.app.inject({
      method: 'POST',
      url: '/pay/notify/stripe',
      headers: { host: 'localhost', 'content-type': 'application/json', 'stripe-signature': e.header },
      payload: e.payload,
    });
    return res.json().result as string;
  };
  const order = async (u: Awaited<ReturnType<typeof newUser>>) => {
    const r = await u.c.post('/web/paySubmit', {
      payment_method: 'creditCard',
      productid: 'card_web_usd_10',
    });
    expect(r.body.retcode).toBe(0);
    return {
      orderId: r.body.data.orderId as string,
      sessionId: new URL(r.body.data.paymentUrl).pathname.split('/').pop()!,
    };
  };

  it("lists Stripe's sessions, refunds and disputes against our books in the four classes", async () => {
    const u = await newUser(s);
    // matched: paid and told; its refund told; its dispute told
    const ok = await order(u);
    const okPaid = fake.pay(ok.sessionId);
    expect(await post('checkout.session.completed', fake.sessions.get(ok.sessionId)!)).toBe('credited');
    const okRefund = fake.addRefund(okPaid.charge, 300);
    expect(await post('refund.created', okRefund)).toBe('debited');
    const okDispute = fake.addDispute(okPaid.charge, 700, 'needs_response');
    expect(await post('charge.dispute.created', okDispute)).toBe('debited');
    // missing on our side: paid at Stripe, the webhook never came; a refund nobody told us of
    const quiet = await order(u);
    fake.pay(quiet.sessionId);
    const silentRefund = fake.addRefund(okPaid.charge, 100);
    // missing on theirs: we booked a refund Stripe does not have (a refund removed there)
    const gone = fake.addRefund(okPaid.charge, 200);
    expect(await post('refund.created', gone)).toBe('debited');
    fake.refunds.delete(gone.id as string);
    // amount differs: Stripe took 9.99 for an order of 10
    const odd = await order(u);
    fake.pay(odd.sessionId);
    fake.sessions.get(odd.sessionId)!.amount_total = 999;
    // an unpaid session and its pending order: both know it, no money: matched
    const idle = await order(u);
    // another product's refund on the same account: not ours, not listed
    fake.refunds.set('re_other', {
      ...silentRefund,
      id: 're_other',
      payment_intent: 'pi_other',
      charge: 'ch_other',
    });
    await ledgerAddsUp(s, u.accountId);

    const report = await admin(s)(
      'payment',
      'reconcile',
      '--from',
      today(),
      '--to',
      today(),
      '--provider',
      'stripe',
    );
    expect(report.code, report.text).toBe(0);
    expect(report.text).toContain("stripe (the provider's API)");
    const ids = (label: string) => linesOf(report.text, label).map((l) => l.split(/\s{2,}/)[2]);
    expect(ids('matched').sort()).toEqual(
      [ok.sessionId, idle.sessionId, okRefund.id as string, okDispute.id as string].sort(),
    );
    expect(ids('missing on our side').sort()).toEqual([quiet.sessionId, silentRefund.id].sort());
    expect(ids('missing on theirs')).toEqual([gone.id]);
    expect(ids('amount differs')).toEqual([odd.sessionId]);
    expect(
      linesOf(report.text, 'missing on our side').find((l) => l.includes(silentRefund.id as string)),
    ).toContain(`order #${ok.orderId}`);
    expect(report.text).not.toContain('re_other');
    expect(report.text).toContain(
      'matched: 4, missing on our side: 2, missing on theirs: 1, amount differs: 1',
    );
  });
});
