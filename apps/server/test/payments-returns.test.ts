import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands, constants, formatMinor, minor } from '@numa/contract';
import { runAdmin } from '../src/cli/admin';
import { brandFlag, type OpenContext } from '../src/cli/context';
import { ManualClock } from '../src/lib/clock';
import { idemKey } from '../src/lib/idem';
import { sandboxSignatureHeader, signSandbox } from '../src/providers/payments/sandbox';
import { ledger } from '../src/repositories/ledger';
import { signIn, startTestApp, testBill, testDbKind, type TestApp } from './helpers';
import { StripeFake, stripeEvent } from './stripe-fake';

/*
 * Money going back (issue 18 §3): refunds and disputes made at the provider debit the balance once
 * each, whatever the number, order or concurrency of the events telling of them; a late payment
 * after a failure credits once. Sandbox notifications (signed as the sandbox signs them) and Stripe's
 * (its documented objects, signed with its SDK) against a local stand-in of its API. The ledger
 * invariant (sum of an account's bills = its balance) is checked after every money step.
 */

const secret = 'test-sandbox-secret-0123456789';
const bt = constants.billTypes;
const clock = new ManualClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    clock,
    envOverrides: { PAYMENT_SANDBOX_SECRET: secret, PAYMENT_DAILY_ATTEMPTS: '100' },
  });
});
afterAll(async () => {
  await t?.close();
});

let phoneSeq = 0;
const newUser = async (app = () => t) => {
  const c = await signIn(app().app, {
    telCode: '1',
    phone: `41566${String(process.pid % 100).padStart(2, '0')}${String(phoneSeq++).padStart(3, '0')}`,
  });
  const phone = (await c.get('/web/getAccountInfo')).body.data.phone as string;
  const [row] = await app().db.query<{ id: number }>(`SELECT id FROM accounts WHERE phone = $1`, [phone]);
  return { c, accountId: row!.id };
};
type User = Awaited<ReturnType<typeof newUser>>;

/** The invariant: the balance is the sum of the account's bills. Returns the balance and the bills. */
async function books(accountId: number, app: TestApp = t) {
  const [row] = await app.db.query<{ balance: number; total: number }>(
    `SELECT a.balance, COALESCE((SELECT SUM(charge) FROM ledger WHERE account_id = a.id), 0)::bigint AS total FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  expect(Number(row!.total)).toBe(Number(row!.balance));
  const bills = await app.db.query<{ type: number; charge: number; options: Record<string, unknown> }>(
    `SELECT type, charge, options FROM ledger WHERE account_id = $1 ORDER BY id`,
    [accountId],
  );
  return { balance: Number(row!.balance), bills: bills.map((b) => ({ ...b, charge: Number(b.charge) })) };
}

/** A top-up order through paySubmit: a card, custom 20 (bonus 3 on numa) unless told. */
async function order(u: User, productid = 'card_web_usd_CUSTOM', custom_amount: number | null = 20) {
  const r = await u.c.post('/web/paySubmit', {
    payment_method: 'creditCard',
    productid,
    ...(custom_amount !== null ? { custom_amount } : {}),
  });
  expect(r.body.retcode).toBe(0);
  const { orderId, paymentUrl } = r.body.data as { orderId: string; paymentUrl: string };
  return { orderId, ref: new URL(paymentUrl).pathname.split('/').pop()! };
}

let eventSeq = 0;
const sandboxEvent = (type: string, data: Record<string, unknown>, id = `evt_t${eventSeq++}`) =>
  JSON.stringify({ id, type, created: Math.floor(clock.now() / 1000), data: { currency: 'usd', ...data } });
const paid = (ref: string, amount: number) => sandboxEvent('checkout.paid', { ref, amount });
const failed = (ref: string, amount: number) => sandboxEvent('checkout.failed', { ref, amount });
const refund = (ref: string, refundId: string, status: string, amount: number, id?: string) =>
  sandboxEvent('refund.updated', { ref, refundId, status, amount }, id);
const dispute = (ref: string, disputeId: string, status: string, amount: number, id?: string) =>
  sandboxEvent('dispute.updated', { ref, disputeId, status, amount }, id);

/** Posts a sandbox notification, signed; returns the webhook's result. */
async function notify(body: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/pay/notify/sandbox',
    headers: {
      host: 'localhost',
      'content-type': 'application/json',
      [sandboxSignatureHeader]: signSandbox(secret, body, Math.floor(clock.now() / 1000)),
    },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as string;
}

/** Paid on the sandbox's own page (the sandbox refunds only what it took): its notification credits. */
async function payOnPage(ref: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/pay/sandbox/${ref}/pay`,
    headers: { host: 'localhost' },
  });
  expect(res.statusCode).toBe(303);
}

function admin(app: TestApp = t) {
  const open: OpenContext = async (flags, out) => ({
    ...app.app.deps,
    brand: brandFlag(flags, app.app.deps.env),
    out,
    close: async () => {},
  });
  return async (...argv: string[]) => {
    const out: string[] = [];
    const code = await runAdmin(argv, { out: (l = '') => out.push(l), err: (l) => out.push(l) }, open);
    return { code, text: out.join('\n') };
  };
}

const ym = () => new Date().toISOString().slice(0, 7);

describe(`money going back on the sandbox (${testDbKind})`, () => {
  it('a full refund takes amount and bonus back once, however often and however concurrently it is told', async () => {
    const u = await newUser();
    const { orderId, ref } = await order(u);
    expect(await notify(paid(ref, 200_000))).toBe('credited');
    expect((await books(u.accountId)).balance).toBe(230_000);

    // the same refund event 10 times at once: debited once
    const body = refund(ref, 'sbxre_full1', 'succeeded', 200_000);
    const results = await Promise.all(Array.from({ length: 10 }, () => notify(body)));
    expect(results.sort()).toEqual(['debited', ...Array(9).fill('duplicate')]);
    // another event about the same refund, and the same one much later: nothing more
    expect(await notify(refund(ref, 'sbxre_full1', 'succeeded', 200_000))).toBe('recorded');
    expect(await notify(refund(ref, 'sbxre_full1', 'pending', 200_000))).toBe('recorded');
    const { balance, bills } = await books(u.accountId);
    expect(balance).toBe(0);
    expect(bills.map((b) => [b.type, b.charge])).toEqual([
      [bt.recharge, 230_000],
      [bt.topUpRefund, -230_000],
    ]);
    expect(bills[1]!.options).toMatchObject({
      amount: 20,
      gift: 3,
      purchaseMethod: 'creditCard',
      orderId,
      refundId: 'sbxre_full1',
    });

    // the bill history shows the new type with the top-up's method; the payment history says refunded
    const list = (await u.c.get('/web/getBillList', { ym: ym() })).body.data.list;
    expect(list[0]).toMatchObject({
      type: bt.topUpRefund,
      charge: -23,
      afterBalance: 0,
      options: { amount: 20, gift: 3, purchaseMethod: 'creditCard', orderId },
    });
    expect(list[0].options.refundId).toBeUndefined();
    expect((await u.c.get('/web/getPaymentList', { date: ym() })).body.data.paymentList).toEqual([
      expect.objectContaining({ amount: 20, gifts: 3, refunded: 20 }),
    ]);
    const shown = (await admin()('payment', 'show', orderId)).text;
    expect(shown).toMatch(new RegExp(`#${orderId}  paid \\(refunded\\)`));
    expect(shown).toContain('refund sbxre_full1  succeeded  20 usd  by the provider  debited (bill');
    // the operator has nothing left to refund
    expect((await admin()('payment', 'refund', orderId)).text).toBe('already refunded');
    expect((await books(u.accountId)).balance).toBe(0);
  });

  it('several partial refunds take the bonus in proportion; one that fails after it was debited comes back once; one larger than what is left is not debited', async () => {
    const u = await newUser();
    const { orderId, ref } = await order(u);
    await payOnPage(ref);
    // bonus 3 of 20: 5 → 0.75, 5 → 0.75, 10 → 1.5 (integer shares of what is returned so far)
    expect(await notify(refund(ref, 'sbxre_p1', 'pending', 50_000))).toBe('debited');
    expect(await notify(refund(ref, 'sbxre_p1', 'succeeded', 50_000))).toBe('recorded');
    expect(await notify(refund(ref, 'sbxre_p2', 'succeeded', 50_000))).toBe('debited');
    expect(await notify(refund(ref, 'sbxre_p3', 'succeeded', 100_000))).toBe('debited');
    let b = await books(u.accountId);
    expect(b.balance).toBe(0);
    expect(b.bills.slice(1).map((x) => [x.type, x.charge, x.options.gift])).toEqual([
      [bt.topUpRefund, -57_500, 0.75],
      [bt.topUpRefund, -57_500, 0.75],
      [bt.topUpRefund, -115_000, 1.5],
    ]);
    // the second one fails at the provider: credited back once, with its share of the bonus
    const failure = refund(ref, 'sbxre_p2', 'failed', 50_000);
    expect((await Promise.all([notify(failure), notify(failure), notify(failure)])).sort()).toEqual([
      'credited',
      'duplicate',
      'duplicate',
    ]);
    expect(await notify(refund(ref, 'sbxre_p2', 'succeeded', 50_000))).toBe('recorded');
    b = await books(u.accountId);
    expect(b.balance).toBe(57_500);
    expect(b.bills.at(-1)).toMatchObject({ type: bt.refundReversed, charge: 57_500 });
    // 15 of 20 stand refunded: a refund of 6 cannot be (the provider never refunds more than was paid)
    expect(await notify(refund(ref, 'sbxre_p4', 'succeeded', 60_000))).toBe('recorded');
    expect((await books(u.accountId)).balance).toBe(57_500);
    expect((await admin()('payment', 'show', orderId)).text).toContain(
      'refund sbxre_p4  succeeded  6 usd  by the provider  not debited: more than is left to refund',
    );
    expect((await u.c.get('/web/getPaymentList', { date: ym() })).body.data.paymentList[0]).toMatchObject({
      refunded: 15,
    });
    // the operator refunds what is left (5): bonus 0.75 with it, the whole bonus is back
    expect((await admin()('payment', 'refund', orderId, '--amount', '6')).text).toBe(
      'only 5 usd is left to refund',
    );
    expect((await admin()('payment', 'refund', orderId)).text).toBe('refunded');
    b = await books(u.accountId);
    expect(b.balance).toBe(0);
    expect(
      b.bills
        .filter((x) => x.type === bt.topUpRefund || x.type === bt.refundReversed)
        .reduce((s, x) => s + Number(x.options.gift) * (x.charge < 0 ? 1 : -1), 0),
    ).toBe(3);
  });

  it('a refund heard before its payment waits for it; a late payment after a failure, a cancel or an expiry credits once; a failure after the payment changes nothing', async () => {
    const u = await newUser();
    // refund first, then failed, then paid: credited, then debited, in that order
    const a = await order(u);
    expect(await notify(refund(a.ref, 'sbxre_early', 'succeeded', 100_000))).toBe('recorded');
    expect((await books(u.accountId)).bills).toEqual([]);
    expect(await notify(failed(a.ref, 200_000))).toBe('failed');
    const latePaid = paid(a.ref, 200_000);
    expect((await Promise.all(Array.from({ length: 5 }, () => notify(latePaid)))).sort()).toEqual([
      'credited',
      ...Array(4).fill('duplicate'),
    ]);
    let b = await books(u.accountId);
    expect(b.bills.map((x) => [x.type, x.charge])).toEqual([
      [bt.recharge, 230_000],
      [bt.topUpRefund, -115_000],
    ]);
    const [row] = await t.db.query(`SELECT status FROM payment_orders WHERE id = $1`, [a.orderId]);
    expect(row.status).toBe('paid');

    // paid, then a failure: nothing changes
    const p = await order(u, 'card_web_usd_10', null);
    expect(await notify(paid(p.ref, 100_000))).toBe('credited');
    expect(await notify(failed(p.ref, 100_000))).toBe('ignored');
    expect((await t.db.query(`SELECT status FROM payment_orders WHERE id = $1`, [p.orderId]))[0].status).toBe(
      'paid',
    );

    // cancelled by the payer's dialog, then paid: credited
    const c = await order(u, 'card_web_usd_5', null);
    expect((await u.c.post('/web/cancelPayment', { orderId: c.orderId })).body.data.status).toBe('cancelled');
    expect(await notify(paid(c.ref, 50_000))).toBe('credited');

    // expired by the job, then paid: credited
    const e = await order(u, 'card_web_usd_2', null);
    clock.advance(3 * 3_600_000);
    await t.app.deps.jobs.drain();
    expect((await t.db.query(`SELECT status FROM payment_orders WHERE id = $1`, [e.orderId]))[0].status).toBe(
      'expired',
    );
    expect(await notify(failed(e.ref, 20_000))).toBe('ignored');
    expect(await notify(paid(e.ref, 20_000))).toBe('credited');
    b = await books(u.accountId);
    expect(b.balance).toBe(115_000 + 100_000 + 50_000 + 20_000);
  });

  it('disputes: opened takes the money, won gives it back once, lost keeps it; outcomes heard before the opening', async () => {
    const u = await newUser();
    const one = await order(u);
    await notify(paid(one.ref, 200_000));
    const opened = dispute(one.ref, 'sbxdp_1', 'opened', 200_000);
    expect((await Promise.all(Array.from({ length: 5 }, () => notify(opened)))).sort()).toEqual([
      'debited',
      ...Array(4).fill('duplicate'),
    ]);
    expect((await books(u.accountId)).balance).toBe(0);
    expect((await u.c.get('/web/getPaymentList', { date: ym() })).body.data.paymentList[0]).toMatchObject({
      dispute: 'open',
    });
    expect(await notify(dispute(one.ref, 'sbxdp_1', 'won', 200_000))).toBe('credited');
    expect(await notify(dispute(one.ref, 'sbxdp_1', 'won', 200_000))).toBe('recorded');
    expect(await notify(dispute(one.ref, 'sbxdp_1', 'opened', 200_000))).toBe('recorded');
    expect(await notify(dispute(one.ref, 'sbxdp_1', 'lost', 200_000))).toBe('recorded');
    let b = await books(u.accountId);
    expect(b.balance).toBe(230_000);
    expect(b.bills.map((x) => [x.type, x.charge])).toEqual([
      [bt.recharge, 230_000],
      [bt.chargeback, -230_000],
      [bt.chargebackReversed, 230_000],
    ]);

    // opened then lost: nothing more after the opening
    const two = await order(u, 'card_web_usd_10', null);
    await notify(paid(two.ref, 100_000));
    expect(await notify(dispute(two.ref, 'sbxdp_2', 'opened', 100_000))).toBe('debited');
    expect(await notify(dispute(two.ref, 'sbxdp_2', 'lost', 100_000))).toBe('recorded');
    expect((await books(u.accountId)).balance).toBe(230_000);
    // lost heard first: taken once; the opening heard later moves nothing
    const three = await order(u, 'card_web_usd_10', null);
    await notify(paid(three.ref, 100_000));
    expect(await notify(dispute(three.ref, 'sbxdp_3', 'lost', 100_000))).toBe('debited');
    expect(await notify(dispute(three.ref, 'sbxdp_3', 'opened', 100_000))).toBe('recorded');
    // won heard first: nothing ever taken
    const four = await order(u, 'card_web_usd_10', null);
    await notify(paid(four.ref, 100_000));
    expect(await notify(dispute(four.ref, 'sbxdp_4', 'won', 100_000))).toBe('recorded');
    expect(await notify(dispute(four.ref, 'sbxdp_4', 'opened', 100_000))).toBe('recorded');
    b = await books(u.accountId);
    expect(b.balance).toBe(230_000 + 100_000);
    const history = (await u.c.get('/web/getPaymentList', { date: ym() })).body.data.paymentList;
    expect(history.map((p: { dispute?: string }) => p.dispute)).toEqual(['won', 'lost', 'lost', 'won']);
    expect((await admin()('payment', 'show', two.orderId)).text).toMatch(
      /paid \(dispute lost\)[\s\S]*dispute sbxdp_2 {2}lost/,
    );
  });

  it('a refund or chargeback may take the balance below zero, shown with a minus, and nothing else may', async () => {
    const u = await newUser();
    const o = await order(u, 'card_web_usd_10', null);
    await notify(paid(o.ref, 100_000));
    // the payer spends 8 of the 10, then disputes the payment with their bank
    await t.db.tx((tx) =>
      ledger.apply(
        tx,
        testBill(u.accountId, bt.sms, minor(-80_000), idemKey('msg', u.accountId, `spend-${o.orderId}`)),
      ),
    );
    expect(await notify(dispute(o.ref, 'sbxdp_neg', 'opened', 100_000))).toBe('debited');
    expect((await books(u.accountId)).balance).toBe(-80_000);
    const status = (await u.c.get('/web/queryPaymentStatus', { orderId: o.orderId })).body.data;
    expect(status.balance).toBe(-8);
    expect(formatMinor(brands.numa, minor(-80_000), 'en')).toBe('-8.0000 Coins');
    expect((await u.c.get('/web/getBillList', { ym: ym() })).body.data.list[0]).toMatchObject({
      type: bt.chargeback,
      charge: -10,
      afterBalance: -8,
    });
    // nothing else takes it further down
    await expect(
      t.db.tx((tx) => ledger.apply(tx, testBill(u.accountId, bt.sms, minor(-1)))),
    ).rejects.toMatchObject({ retcode: 400001 });
    // a new top-up pays the debt first
    const again = await order(u, 'card_web_usd_10', null);
    await notify(paid(again.ref, 100_000));
    expect((await books(u.accountId)).balance).toBe(20_000);
  });

  it("the operator's refund is the sandbox's refund: the notification it sends moves nothing more", async () => {
    const u = await newUser();
    const { orderId, ref } = await order(u);
    await payOnPage(ref);
    expect((await admin()('payment', 'refund', orderId, '--amount', '5')).text).toBe('refunded 5 usd');
    const events = await t.db.query<{ event_id: string; result: string }>(
      `SELECT event_id, result FROM payment_events WHERE order_id = $1 ORDER BY id`,
      [orderId],
    );
    // the sandbox's notification (heard first, in its own request), then the operator's record of the same refund
    expect(events.map((e) => e.result)).toEqual([
      'credited',
      'refund succeeded: debited',
      'refund succeeded: recorded',
    ]);
    const refundId = events[1]!.event_id.replace(/^evt_/, '');
    expect(events[2]!.event_id).toBe(`operator:${refundId}`);
    // the provider sends it again later: nothing
    expect(await notify(refund(ref, refundId, 'succeeded', 50_000, events[1]!.event_id))).toBe('duplicate');
    expect(await notify(refund(ref, refundId, 'succeeded', 50_000))).toBe('recorded');
    expect((await books(u.accountId)).balance).toBe(230_000 - 57_500);
    expect((await admin()('payment', 'list', '--status', 'paid')).text).toContain(
      `#${orderId}  paid (refunded 5 of 20)`,
    );
    expect((await admin()('payment', 'refund', orderId)).text).toBe('refunded');
    expect((await admin()('payment', 'refund', orderId)).text).toBe('already refunded');
    expect((await admin()('payment', 'refund', orderId, '--amount', '0')).code).toBe(1);
    expect((await books(u.accountId)).balance).toBe(0);
  });
});

describe(`the crypto quote at the API (${testDbKind})`, () => {
  it('asks for the transfer rounded up, so the payer never underpays (integer arithmetic)', async () => {
    const u = await newUser();
    const eth = (
      await u.c.post('/web/etherPay/paySubmit', { productid: 'crypto_web_usd_10', currency: 'ETH' })
    ).body.data;
    // 10 / 3000 = 0.003333…: toFixed(8) of the float asked 0.00333333, a hair under the order
    expect(eth).toMatchObject({ rechargeAmount: '0.00333334', cryptoToLegalRate: '3000' });
  });
});

describe(`money going back through Stripe (${testDbKind})`, () => {
  const webhookSecret = 'whsec_test_returns_0123456789';
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
  const post = async (
    type: string,
    object: Record<string, unknown>,
    id = `evt_st${evt++}`,
    version?: string,
  ) => {
    const e = stripeEvent(webhookSecret, type, object, id, version);
    const res = await s.app.inject({
      method: 'POST',
      url: '/pay/notify/stripe',
      headers: { host: 'localhost', 'content-type': 'application/json', 'stripe-signature': e.header },
      payload: e.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as string;
  };
  /** A card top-up of 20 (bonus 3) at Stripe, its session paid there. */
  async function stripeOrder(u: User, pay = true) {
    const r = await u.c.post('/web/paySubmit', {
      payment_method: 'creditCard',
      productid: 'card_web_usd_CUSTOM',
      custom_amount: 20,
    });
    expect(r.body.retcode).toBe(0);
    const sessionId = new URL(r.body.data.paymentUrl).pathname.split('/').pop()!;
    const p = pay ? fake.pay(sessionId) : null;
    return { orderId: r.body.data.orderId as string, sessionId, ...(p ?? {}) };
  }
  const completed = (sessionId: string) => post('checkout.session.completed', fake.sessions.get(sessionId)!);

  it('charge.refunded debits each refund the charge lists once; refund.updated after it, replays and an older API version move nothing more', async () => {
    const u = await newUser(() => s);
    const o = await stripeOrder(u);
    expect(await completed(o.sessionId)).toBe('credited');
    const [row] = await s.db.query(`SELECT payment_ref FROM payment_orders WHERE id = $1`, [o.orderId]);
    expect(row.payment_ref).toBe(o.intent);
    // two partial refunds in Stripe's dashboard; the charge.refunded of the second lists both
    const r1 = fake.addRefund(o.charge!, 500);
    const r2 = fake.addRefund(o.charge!, 700);
    const charge = fake.charges.get(o.charge!)!;
    const event = stripeEvent(webhookSecret, 'charge.refunded', charge, 'evt_chrefunded');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        s.app.inject({
          method: 'POST',
          url: '/pay/notify/stripe',
          headers: {
            host: 'localhost',
            'content-type': 'application/json',
            'stripe-signature': event.header,
          },
          payload: event.payload,
        }),
      ),
    );
    // each refund debited once, whichever request got to it first (the bills below)
    const told = answers.map((a) => a.json().result as string);
    expect(told).toContain('debited');
    expect(told.every((r) => r === 'debited' || r === 'duplicate')).toBe(true);
    // refund.updated after charge.refunded: the same refund
    expect(await post('refund.updated', r1)).toBe('recorded');
    expect(await post('refund.created', r2)).toBe('recorded');
    // an endpoint on an API version before 2022-11-15 gets the refunds inside the charge
    expect(
      await post(
        'charge.refunded',
        { ...charge, refunds: { object: 'list', data: [r1, r2], has_more: false, url: '/v1/refunds' } },
        undefined,
        '2020-08-27',
      ),
    ).toBe('recorded');
    const b = await books(u.accountId, s);
    // 5 + 7 of 20 with their bonus shares (0.75, then 1.8 − 0.75)
    expect(b.bills.map((x) => [x.type, x.charge])).toEqual([
      [bt.recharge, 230_000],
      [bt.topUpRefund, -57_500],
      [bt.topUpRefund, -80_500],
    ]);
    expect(b.balance).toBe(92_000);
    // the second refund fails at the bank: refund.failed credits it back once
    fake.refunds.get(r2.id as string)!.status = 'failed';
    const failedEvent = { ...r2, status: 'failed', failure_reason: 'expired_or_canceled_card' };
    expect(await post('refund.failed', failedEvent)).toBe('credited');
    expect(await post('refund.updated', failedEvent)).toBe('recorded');
    expect((await books(u.accountId, s)).balance).toBe(92_000 + 80_500);
  });

  it('a refund heard before its payment is found through the API and waits for the payment; an unknown payment moves nothing', async () => {
    const u = await newUser(() => s);
    const o = await stripeOrder(u);
    const r = fake.addRefund(o.charge!, 2000);
    // refund.created arrives before checkout.session.completed: the order is found by its session
    expect(await post('refund.created', r)).toBe('recorded');
    expect((await books(u.accountId, s)).bills).toEqual([]);
    expect(await completed(o.sessionId)).toBe('credited');
    const b = await books(u.accountId, s);
    expect(b.bills.map((x) => [x.type, x.charge])).toEqual([
      [bt.recharge, 230_000],
      [bt.topUpRefund, -230_000],
    ]);
    // a refund of another product's payment on the same Stripe account: acknowledged, nothing moves
    const foreign = { ...r, id: 're_foreign', payment_intent: 'pi_not_ours', charge: 'ch_not_ours' };
    expect(await post('refund.created', foreign)).toBe('ignored');
  });

  it('disputes: created takes the money, funds events and closed won give it back once; an inquiry takes nothing; lost before created takes it once', async () => {
    const u = await newUser(() => s);
    const o = await stripeOrder(u);
    await completed(o.sessionId);
    const d = fake.addDispute(o.charge!, 2000, 'needs_response');
    expect(await post('charge.dispute.created', d)).toBe('debited');
    expect(await post('charge.dispute.funds_withdrawn', d)).toBe('recorded');
    expect((await books(u.accountId, s)).balance).toBe(0);
    expect(await post('charge.dispute.updated', { ...d, status: 'under_review' })).toBe('ignored');
    expect(await post('charge.dispute.closed', { ...d, status: 'won' })).toBe('credited');
    expect(await post('charge.dispute.funds_reinstated', { ...d, status: 'won' })).toBe('recorded');
    expect((await books(u.accountId, s)).balance).toBe(230_000);

    // an inquiry (warning_needs_response) holds no money back
    const o2 = await stripeOrder(u);
    await completed(o2.sessionId);
    const inquiry = fake.addDispute(o2.charge!, 2000, 'warning_needs_response');
    expect(await post('charge.dispute.created', inquiry)).toBe('ignored');
    expect(await post('charge.dispute.closed', { ...inquiry, status: 'warning_closed' })).toBe('ignored');
    expect((await books(u.accountId, s)).balance).toBe(460_000);
    // closed lost heard before created: taken once, with the bonus
    const lost = fake.addDispute(o2.charge!, 2000, 'lost');
    expect(await post('charge.dispute.closed', lost)).toBe('debited');
    expect(await post('charge.dispute.created', { ...lost, status: 'needs_response' })).toBe('recorded');
    const b = await books(u.accountId, s);
    expect(b.balance).toBe(230_000);
    expect(b.bills.at(-1)).toMatchObject({ type: bt.chargeback, charge: -230_000 });
  });

  it('Cancel at Stripe Checkout: the signed cancel URL closes the order and expires the session once; forged links change nothing; a late payment credits once (issue 20)', async () => {
    const u = await newUser(() => s);
    const other = await newUser(() => s);
    const r = await u.c.post('/web/paySubmit', {
      payment_method: 'creditCard',
      productid: 'card_web_usd_CUSTOM',
      custom_amount: 20,
      return_url: 'http://localhost/numbers',
    });
    const orderId = r.body.data.orderId as string;
    const sessionId = new URL(r.body.data.paymentUrl as string).pathname.split('/').pop()!;
    const theirs = await stripeOrder(other, false);
    const cancelUrl = new URL(fake.sessions.get(sessionId)!.cancel_url as string);
    expect(cancelUrl.pathname).toBe('/pay/cancel/stripe');
    expect(cancelUrl.searchParams.get('order')).toBe(orderId);
    const sig = cancelUrl.searchParams.get('sig')!;
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    const get = (url: string) => s.app.inject({ url, headers: { host: 'localhost' } });
    const status = async (id: string, c = u.c) =>
      (await c.get('/web/queryPaymentStatus', { orderId: id })).body.data.status as string;

    // forged (another order's id with this signature, a flipped signature), unsigned, malformed:
    // refused with a retcode, and nothing changes
    const refused: [string, number][] = [
      [`/pay/cancel/stripe?order=${theirs.orderId}&sig=${sig}`, 100003],
      [`/pay/cancel/stripe?order=${orderId}&sig=${sig.replace(/^./, sig[0] === '0' ? '1' : '0')}`, 100003],
      [`/pay/cancel/stripe?order=${orderId}`, 100001],
      [`/pay/cancel/stripe?order=${orderId}&sig=`, 100001],
      [`/pay/cancel/stripe?order=${orderId}&sig=${sig.slice(2)}`, 100001],
      [`/pay/cancel/stripe?order=abc&sig=${sig}`, 100001],
      [`/pay/cancel/stripe?order=0${orderId}&sig=${sig}`, 100001],
      [`/pay/cancel/stripe?sig=${sig}`, 100001],
    ];
    for (const [url, retcode] of refused) {
      const res = await get(url);
      expect(res.json().retcode, url).toBe(retcode);
      expect(res.statusCode, url).toBe(retcode === 100003 ? 403 : 400);
    }
    expect(await status(orderId)).toBe('pending');
    expect(await status(theirs.orderId, other.c)).toBe('pending');
    expect(fake.sessions.get(sessionId)!.status).toBe('open');
    expect(fake.sessions.get(theirs.sessionId)!.status).toBe('open');

    // the real link: the order is cancelled, the session expired, the payer goes back
    const back = await get(cancelUrl.pathname + cancelUrl.search);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('http://localhost/numbers');
    expect(await status(orderId)).toBe('cancelled');
    expect(fake.sessions.get(sessionId)!.status).toBe('expired');
    // a replay changes nothing and still goes back
    const expires = () => fake.requests.filter((x) => x.endsWith(`${sessionId}/expire`)).length;
    const before = expires();
    expect((await get(cancelUrl.pathname + cancelUrl.search)).statusCode).toBe(303);
    expect(await status(orderId)).toBe('cancelled');
    expect(expires()).toBe(before);
    expect((await books(u.accountId, s)).bills).toEqual([]);

    // a payment that went through after all is credited once, and a replay of it moves nothing
    fake.pay(sessionId);
    const late = `evt_late_${sessionId}`;
    expect(await post('checkout.session.completed', fake.sessions.get(sessionId)!, late)).toBe('credited');
    expect(await post('checkout.session.completed', fake.sessions.get(sessionId)!, late)).toBe('duplicate');
    expect(await completed(sessionId)).toBe('ignored');
    expect(await status(orderId)).toBe('paid');
    // a cancel link of a paid order never touches it
    expect((await get(cancelUrl.pathname + cancelUrl.search)).statusCode).toBe(303);
    expect(await status(orderId)).toBe('paid');
    const b = await books(u.accountId, s);
    expect(b.bills.map((x) => [x.type, x.charge])).toEqual([[bt.recharge, 230_000]]);
    expect((await books(other.accountId, s)).bills).toEqual([]);
  });

  it("the operator's refund goes through Stripe's refunds API and its refund.created webhook moves nothing more", async () => {
    const u = await newUser(() => s);
    const o = await stripeOrder(u);
    await completed(o.sessionId);
    expect((await admin(s)('payment', 'refund', o.orderId, '--amount', '8')).text).toBe('refunded 8 usd');
    const form = fake.refundRequests.at(-1)!;
    expect(form.get('payment_intent')).toBe(o.intent);
    expect(form.get('amount')).toBe('800');
    const made = [...fake.refunds.values()].at(-1)!;
    expect(await post('refund.created', made)).toBe('recorded');
    expect(await post('charge.refunded', fake.charges.get(o.charge!)!)).toBe('recorded');
    const b = await books(u.accountId, s);
    expect(b.bills.map((x) => [x.type, x.charge])).toEqual([
      [bt.recharge, 230_000],
      [bt.topUpRefund, -92_000],
    ]);
    expect(b.bills[1]!.options.refundId).toBe(made.id);
  });
});
