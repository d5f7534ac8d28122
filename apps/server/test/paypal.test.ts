import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '@numa/contract';
import type { Database } from '../src/db';
import { ManualClock } from '../src/lib/clock';
import { paymentProviders } from '../src/providers/payments';
import { BtcpayPayments } from '../src/providers/payments/btcpay';
import { PaypalPayments } from '../src/providers/payments/paypal';
import { paypalCertPolicy, paypalSignedMessage } from '../src/providers/payments/paypal-webhook';
import {
  ForgedNotification,
  ProviderUnavailable,
  type IncomingWebhook,
} from '../src/providers/payments/port';
import {
  clientId,
  clientSecret,
  fixture,
  PaypalStandIn,
  webhookId,
  type Json,
} from './fixtures/paypal-standin';
import { signIn, startTestApp, testDbKind, testEnv, type TestApp } from './helpers';

// an independent CRC-32 (buffer-crc32, pure JS) to hold node:zlib's to
const bufferCrc32 = createRequire(import.meta.url)('buffer-crc32') as {
  unsigned(input: Buffer): number;
};

const standIn = new PaypalStandIn();
const clock = new ManualClock();
beforeAll(async () => {
  await standIn.start();
});
afterAll(async () => {
  await standIn.close();
});

let prefixSeq = 0;
const adapter = (c = clock) =>
  new PaypalPayments(
    {
      clientId,
      clientSecret,
      webhookId,
      environment: 'sandbox',
      invoicePrefix: `t${process.pid}-${prefixSeq++}-`,
      apiBaseUrl: standIn.url,
    },
    c,
    standIn.certPolicy(),
  );

const webhook = (body: string, headers: Record<string, string>): IncomingWebhook => ({
  rawBody: body,
  headers,
  url: '/pay/notify/paypal',
});
/** A documented event, changed where a test needs it, as the exact text PayPal would post. */
const eventText = (name: string, change: (e: Json) => void = () => {}) => {
  const e = fixture(name);
  change(e);
  return JSON.stringify(e, null, 1);
};
const signed = (body: string, opts?: Parameters<PaypalStandIn['sign']>[1]) =>
  webhook(body, standIn.sign(body, opts));

describe('PayPal webhook signatures, verified offline', () => {
  it("signs over the CRC32 PayPal documents: node's zlib agrees with buffer-crc32 on every fixture", () => {
    const dir = new URL('./fixtures/paypal/', import.meta.url);
    const bodies = readdirSync(dir)
      .filter((f) => f.startsWith('webhook-'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'));
    expect(bodies.length).toBeGreaterThanOrEqual(7);
    for (const body of [...bodies, '', '{"a":"é😀"}']) {
      const ours = zlibCrc32(Buffer.from(body, 'utf8')) >>> 0;
      expect(ours).toBe(bufferCrc32.unsigned(Buffer.from(body, 'utf8')));
      expect(paypalSignedMessage('tid', '2024-01-01T00:00:00Z', 'WH1', body)).toBe(
        `tid|2024-01-01T00:00:00Z|WH1|${ours}`,
      );
    }
  });

  it("accepts PayPal's signature and refuses tampered, forged, misaddressed and stale deliveries", async () => {
    const p = adapter();
    const body = eventText('webhook-payment-capture-completed');
    const good = signed(body);
    expect(await p.parseNotification(good)).toMatchObject({ kind: 'payment', outcome: 'paid' });
    const refused = async (w: IncomingWebhook) =>
      expect(p.parseNotification(w)).rejects.toBeInstanceOf(ForgedNotification);
    // the body changed after signing (an amount raised)
    await refused(webhook(body.replace('"2.51"', '"25.10"'), good.headers as Record<string, string>));
    // signed for another webhook (another app's event replayed at ours)
    await refused(signed(body, { webhookId: 'OTHERWEBHOOK1' }));
    // a self-signed certificate in PayPal's name, at an allowed URL: no chain to a trusted root
    await refused(signed(body, { cert: 'CERT-forged', key: 'forged-selfsigned.key' }));
    // our certificate's URL, someone else's key
    await refused(signed(body, { key: 'forged-selfsigned.key' }));
    // a certificate URL that is not PayPal's is not even fetched
    const before = standIn.requests.length;
    await refused(signed(body, { certUrl: 'http://127.0.0.1:9/certs/CERT-test' }));
    await refused(
      signed(body, { certUrl: 'https://api.sandbox.paypal.com.example.net/v1/notifications/certs/CERT-1' }),
    );
    expect(standIn.requests.slice(before).some((r) => r.path.startsWith('/certs/'))).toBe(false);
    // headers missing, another algorithm, a signature that is not one
    const h = good.headers as Record<string, string>;
    const { ['paypal-transmission-sig']: _sig, ...noSig } = h;
    await refused(webhook(body, noSig));
    await refused(webhook(body, { ...h, 'paypal-auth-algo': 'SHA1withRSA' }));
    await refused(webhook(body, { ...h, 'paypal-transmission-sig': 'bm90IGEgc2lnbmF0dXJl' }));
    // the same delivery once the certificate has expired
    const late = new ManualClock(Date.parse('2047-01-01T00:00:00Z'));
    await expect(adapter(late).parseNotification(signed(body))).rejects.toBeInstanceOf(ForgedNotification);
    // not JSON, though signed
    await refused(signed('not json'));
  });

  it("trusts certificate URLs on PayPal's API hosts only, in production", () => {
    const ok = (u: string) => paypalCertPolicy.allowUrl(new URL(u));
    expect(ok('https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270')).toBe(
      true,
    );
    expect(ok('https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77')).toBe(true);
    expect(ok('https://api-m.paypal.com/v1/notifications/certs/CERT-1')).toBe(true);
    expect(ok('http://api.paypal.com/v1/notifications/certs/CERT-1')).toBe(false);
    expect(ok('https://api.paypal.com:8443/v1/notifications/certs/CERT-1')).toBe(false);
    expect(ok('https://api.paypal.com.evil.example/v1/notifications/certs/CERT-1')).toBe(false);
    expect(ok('https://evil.example/api.paypal.com/v1/notifications/certs/CERT-1')).toBe(false);
    expect(ok('https://user@api.paypal.com/v1/notifications/certs/CERT-1')).toBe(false);
    expect(ok('https://api.paypal.com/v1/other/CERT-1')).toBe(false);
    expect(ok(`${standIn.url}/certs/CERT-test`)).toBe(false);
  });

  it('maps the documented events to payments, refunds and disputes', async () => {
    const p = adapter();
    const parse = (name: string, change?: (e: Json) => void) =>
      p.parseNotification(signed(eventText(name, change)));
    expect(await parse('webhook-payment-capture-completed')).toMatchObject({
      kind: 'payment',
      eventId: 'WH-58D329510W468432D-8HN650336L201105X',
      ref: '1AB234567A1234567',
      paymentRef: '27M47624FP291604U',
      outcome: 'paid',
      amount: toMinor(2.51),
      currency: 'usd',
    });
    expect(await parse('webhook-payment-capture-denied')).toMatchObject({
      kind: 'payment',
      ref: '1AB234567A1234567',
      paymentRef: '7NW873794T343360M',
      outcome: 'failed',
    });
    expect(
      await parse('webhook-payment-capture-denied', (e) => (e.event_type = 'PAYMENT.CAPTURE.DECLINED')),
    ).toMatchObject({ outcome: 'failed' });
    // without related_ids, the order is the capture's `up` link
    expect(
      await parse('webhook-payment-capture-completed', (e) => delete e.resource.supplementary_data),
    ).toMatchObject({ ref: '1AB234567A1234567' });
    expect(await parse('webhook-payment-capture-refunded')).toEqual(
      expect.objectContaining({
        kind: 'refund',
        eventId: 'WH-1GE84257G0350133W-6RW800890C634293G',
        refundId: '1Y107995YT783435V',
        paymentRef: '0JF852973C016714D',
        status: 'succeeded',
        amount: toMinor(0.99),
        currency: 'usd',
      }),
    );
    expect(await parse('webhook-payment-capture-reversed')).toMatchObject({
      kind: 'refund',
      refundId: '09E71677NS257044M',
      paymentRef: '4L335234718889942',
      amount: toMinor(2.51),
    });
    expect(
      await parse('webhook-payment-capture-refunded', (e) => (e.resource.status = 'PENDING')),
    ).toMatchObject({ status: 'pending' });
    expect(await parse('webhook-customer-dispute-created')).toMatchObject({
      kind: 'dispute',
      disputeId: 'PP-000-042-663-135',
      paymentRef: '00D10444LD479031K',
      status: 'opened',
      amount: toMinor(3),
      currency: 'usd',
    });
    expect(await parse('webhook-customer-dispute-resolved')).toMatchObject({
      kind: 'dispute',
      status: 'lost',
    });
    expect(
      await parse(
        'webhook-customer-dispute-resolved',
        (e) => (e.resource.dispute_outcome.outcome_code = 'RESOLVED_SELLER_FAVOUR'),
      ),
    ).toMatchObject({ status: 'won' });
    // money on its way or events we do not act on
    expect(
      await parse('webhook-payment-capture-completed', (e) => {
        e.event_type = 'PAYMENT.CAPTURE.PENDING';
        e.resource.status = 'PENDING';
      }),
    ).toBeNull();
    expect(
      await parse('webhook-customer-dispute-created', (e) => (e.event_type = 'CUSTOMER.DISPUTE.UPDATED')),
    ).toBeNull();
    // PayPal's signature on a resource of the wrong shape: refused, not guessed at
    await expect(
      parse('webhook-payment-capture-completed', (e) => delete e.resource.amount),
    ).rejects.toBeInstanceOf(ForgedNotification);
    await expect(
      parse('webhook-customer-dispute-resolved', (e) => delete e.resource.dispute_outcome),
    ).rejects.toBeInstanceOf(ForgedNotification);
  });
});

describe('PayPal adapter against a stand-in of its API', () => {
  const order = (orderId: number, amount = 200_000) => ({
    orderId,
    brand: 'numa',
    method: 'paypal',
    amount: amount as never,
    currency: 'usd',
    description: `Numa top-up #${orderId}`,
    baseUrl: 'http://numa.localhost:8080',
    returnUrl: null,
  });

  it('creates the order as PayPal documents, captures it once however often asked, refunds and lists', async () => {
    const p = adapter();
    const before = standIn.requests.length;
    const checkout = await p.createCheckout(order(41));
    expect(checkout.paymentUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${checkout.ref}`);
    const create = standIn.requests.slice(before).find((r) => r.path === '/v2/checkout/orders')!;
    expect(create.headers['paypal-request-id']).toMatch(/^numa-create-t\d+-\d+-41$/);
    expect(create.body).toMatchObject({
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: '41',
          custom_id: '41',
          invoice_id: expect.stringMatching(/-41$/),
          amount: { currency_code: 'USD', value: '20.00' },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            brand_name: 'Numa',
            return_url: 'http://numa.localhost:8080/pay/return/paypal',
            cancel_url: 'http://numa.localhost:8080/pay/cancel/paypal',
            user_action: 'PAY_NOW',
            shipping_preference: 'NO_SHIPPING',
          },
        },
      },
    });
    // a retried submit of the same order asks with the same key and gets the same PayPal order
    expect((await p.createCheckout(order(41))).ref).toBe(checkout.ref);

    expect(await p.query(checkout.ref)).toBe('pending');
    standIn.approve(checkout.ref);
    const paid = await p.query(checkout.ref);
    const captureId = standIn.orders.get(checkout.ref)!.captureId!;
    expect(paid).toMatchObject({
      kind: 'payment',
      outcome: 'paid',
      ref: checkout.ref,
      paymentRef: captureId,
      amount: 200_000,
    });
    expect(await p.query(checkout.ref)).toMatchObject({ outcome: 'paid', paymentRef: captureId });
    expect(await p.capture(checkout.ref)).toMatchObject({ status: 'COMPLETED' });
    expect(standIn.orders.get(checkout.ref)!.captures).toBe(1);
    const captures = standIn.requests.filter((r) => r.path === `/v2/checkout/orders/${checkout.ref}/capture`);
    expect(new Set(captures.map((r) => r.headers['paypal-request-id']))).toEqual(
      new Set([`numa-capture-${checkout.ref}`]),
    );

    // the refund's own id comes back: its PAYMENT.CAPTURE.REFUNDED webhook is the same refund
    expect(await p.refund(checkout.ref, toMinor(5))).toMatchObject({
      refundId: expect.any(String),
      status: expect.stringMatching(/^(succeeded|pending)$/),
      paymentRef: captureId,
    });
    const refund = standIn.requests.find((r) => r.path === `/v2/payments/captures/${captureId}/refund`)!;
    expect(refund.body).toMatchObject({ amount: { currency_code: 'USD', value: '5.00' } });
    expect(refund.headers['paypal-request-id']).toBe(`numa-refund-${captureId}-50000`);

    const listed = await p.listTransactions(
      new Date('2014-07-01T00:00:00Z'),
      new Date('2014-07-31T00:00:00Z'),
    );
    expect(listed).toEqual([
      expect.objectContaining({
        kind: 'payment',
        id: '5TY05013RG002845M',
        paymentRef: '5TY05013RG002845M',
        amount: toMinor(465),
        currency: 'usd',
        status: 'S',
      }),
      expect.objectContaining({
        kind: 'refund',
        id: '1Y107995YT783435V',
        paymentRef: '5TY05013RG002845M',
        amount: toMinor(10.99),
      }),
    ]);
    expect(listed[0]!.at.toISOString()).toBe('2014-07-11T04:03:52.000Z');
  });

  it('a declined capture fails the order; PayPal down or refusing is told apart; USD only', async () => {
    const p = adapter();
    const c = await p.createCheckout(order(42));
    standIn.approve(c.ref);
    standIn.nextCaptureStatus = 'DECLINED';
    try {
      expect(await p.query(c.ref)).toMatchObject({ outcome: 'failed' });
    } finally {
      standIn.nextCaptureStatus = 'COMPLETED';
    }
    await expect(p.createCheckout({ ...order(43), currency: 'cny' })).rejects.toBeInstanceOf(
      ProviderUnavailable,
    );
    standIn.down = true;
    try {
      await expect(p.createCheckout(order(44))).rejects.toBeInstanceOf(ProviderUnavailable);
      expect(await p.query(c.ref)).toBe('unknown');
    } finally {
      standIn.down = false;
    }
    // an invoice id PayPal has seen before (its request-id memory gone, after 6 hours): refused, the order fails
    const dup = () =>
      new PaypalPayments(
        {
          clientId,
          clientSecret,
          webhookId,
          environment: 'sandbox',
          invoicePrefix: `dup${process.pid}-`,
          apiBaseUrl: standIn.url,
        },
        clock,
        standIn.certPolicy(),
      );
    await dup().createCheckout(order(45));
    standIn.forgetRequestIds();
    const err = await dup()
      .createCheckout({ ...order(45), amount: 100_000 as never })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ProviderUnavailable);
    expect((err as Error).message).toMatch(/DUPLICATE_INVOICE_ID/);
  });

  it('is built from the environment, and refuses to start without its credentials', () => {
    const build = (o: Record<string, string>) =>
      paymentProviders(testEnv(o), {} as Database, clock, async () => ({ status: 200 }));
    expect(() => build({ PAYMENT_PAYPAL: 'paypal' })).toThrow(
      /PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID/,
    );
    expect(() => build({ PAYMENT_CRYPTO: 'btcpay' })).toThrow(
      /BTCPAY_URL, BTCPAY_API_KEY, BTCPAY_STORE_ID and BTCPAY_WEBHOOK_SECRET/,
    );
    const built = build({
      PAYMENT_PAYPAL: 'paypal',
      PAYPAL_CLIENT_ID: clientId,
      PAYPAL_CLIENT_SECRET: clientSecret,
      PAYPAL_WEBHOOK_ID: webhookId,
      PAYMENT_CRYPTO: 'btcpay',
      BTCPAY_URL: 'https://btcpay.example.com',
      BTCPAY_API_KEY: 'k'.repeat(40),
      BTCPAY_STORE_ID: 'S'.repeat(44),
      BTCPAY_WEBHOOK_SECRET: 'w'.repeat(20),
    });
    expect(built.paypal).toBeInstanceOf(PaypalPayments);
    expect(built.crypto).toBeInstanceOf(BtcpayPayments);
    expect(build({}).paypal).toBeUndefined();
    expect(build({}).crypto).toBeUndefined();
  });
});

describe(`PayPal through the app (${testDbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ payments: adapter(new ManualClock()) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (body: string, headers: Record<string, string>, host = 'localhost') =>
    t.app.inject({
      method: 'POST',
      url: '/pay/notify/paypal',
      headers: { ...headers, host },
      payload: body,
    });
  const ledgerOf = async (orderId: string) => {
    const [row] = await t.db.query<{ balance: string; total: string | null; events: string }>(
      `SELECT a.balance, (SELECT sum(charge) FROM ledger WHERE account_id = a.id)::bigint AS total,
              (SELECT count(*) FROM payment_events e WHERE e.order_id = o.id)::int AS events
       FROM accounts a JOIN payment_orders o ON o.account_id = a.id WHERE o.id = $1`,
      [orderId],
    );
    // the invariant: the balance is the sum of the account's bills
    expect(Number(row!.total ?? 0)).toBe(Number(row!.balance));
    return { balance: Number(row!.balance), events: Number(row!.events) };
  };
  const captureEvent = (
    paypalOrder: string,
    captureId: string,
    value: string,
    id: string,
    type = 'PAYMENT.CAPTURE.COMPLETED',
  ) =>
    eventText('webhook-payment-capture-completed', (e) => {
      e.id = id;
      e.event_type = type;
      e.resource.id = captureId;
      e.resource.status = type === 'PAYMENT.CAPTURE.COMPLETED' ? 'COMPLETED' : 'DECLINED';
      e.resource.amount.value = value;
      e.resource.supplementary_data.related_ids.order_id = paypalOrder;
    });

  it('opens a PayPal order, credits its verified webhook once under 5 concurrent replays, and stores nothing for a forged one', async () => {
    const c = await signIn(t.app, {
      telCode: '1',
      phone: `41566${String(process.pid % 100).padStart(2, '0')}001`,
    });
    const sub = (await c.post('/web/paypal/paySubmit', { productid: 'paypal_web_usd_20' })).body;
    expect(sub.retcode).toBe(0);
    const { orderId, transactionId, paymentUrl } = sub.data;
    expect(paymentUrl).toBe(`https://www.sandbox.paypal.com/checkoutnow?token=${transactionId}`);
    expect(standIn.orders.get(transactionId)).toMatchObject({
      customId: orderId,
      amount: { value: '20.00' },
    });

    // forged: the amount raised after PayPal signed; nothing is stored, nothing moves
    const genuine = captureEvent(transactionId, '5TF45162SF1234567', '20.00', 'WH-1TEST-CAPTURE');
    const headers = standIn.sign(genuine);
    expect((await post(genuine.replace('"20.00"', '"20.01"'), headers)).statusCode).toBe(403);
    expect(
      (await post(genuine, { ...headers, 'paypal-cert-url': `${standIn.url}/certs/CERT-forged` })).statusCode,
    ).toBe(403);
    expect(await ledgerOf(orderId)).toEqual({ balance: 0, events: 0 });

    // out of order: a refund told before the capture names a capture no order has yet: recorded, nothing
    // moves; once the capture credits the order, the refund is the order's and takes its 0.99 back
    const refundFirst = eventText('webhook-payment-capture-refunded', (e) => {
      e.resource.links[1].href = 'https://api.paypal.com/v2/payments/captures/5TF45162SF1234567';
    });
    const early = await post(refundFirst, standIn.sign(refundFirst));
    expect(early.statusCode).toBe(200);
    expect(early.json().result).toBe('ignored');

    // PayPal delivers the capture five times at once (retries): credited once
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(genuine, headers)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.json().result).sort()).toEqual([
      'credited',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await ledgerOf(orderId)).toEqual({ balance: 200_000 - 9_900, events: 2 });
    const [row] = await t.db.query<{ status: string }>(`SELECT status FROM payment_orders WHERE id = $1`, [
      orderId,
    ]);
    expect(row!.status).toBe('paid');
    // an amount different from the order's: refused and recorded, not credited
    const short = await post(
      captureEvent(transactionId, '5TF45162SF1234567', '2.00', 'WH-2TEST-SHORT'),
      standIn.sign(captureEvent(transactionId, '5TF45162SF1234567', '2.00', 'WH-2TEST-SHORT')),
    );
    expect(short.statusCode).toBe(400);
    expect(await ledgerOf(orderId)).toEqual({ balance: 200_000 - 9_900, events: 3 });
  });

  it('captures on the payer’s return and on CHECKOUT.ORDER.APPROVED, whichever comes first, once', async () => {
    const c = await signIn(t.app, {
      telCode: '1',
      phone: `41566${String(process.pid % 100).padStart(2, '0')}002`,
    });
    const submit = async () =>
      (await c.post('/web/paypal/paySubmit', { productid: 'paypal_web_usd_10' })).body.data;

    // the payer comes back first: captured and credited there; the approval webhook arrives late
    const a = await submit();
    standIn.approve(a.transactionId);
    const back = await t.app.inject({
      method: 'GET',
      url: `/pay/return/paypal?token=${a.transactionId}&PayerID=QYR5Z8XDVJNXQ`,
      headers: { host: 'localhost' },
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('http://localhost/account/credit');
    expect(await ledgerOf(a.orderId)).toEqual({ balance: 100_000, events: 1 });
    const approvedA = eventText('webhook-checkout-order-approved', (e) => {
      e.id = 'WH-APPROVED-A';
      e.resource.id = a.transactionId;
    });
    const lateApproval = await post(approvedA, standIn.sign(approvedA));
    expect(lateApproval.json().result).toBe('ignored');
    expect(standIn.orders.get(a.transactionId)!.captures).toBe(1);

    // the payer closes PayPal's window before coming back: the approval webhook captures
    const b = await submit();
    standIn.approve(b.transactionId);
    const approvedB = eventText('webhook-checkout-order-approved', (e) => {
      e.id = 'WH-APPROVED-B';
      e.resource.id = b.transactionId;
    });
    const results = await Promise.all([
      post(approvedB, standIn.sign(approvedB)),
      post(approvedB, standIn.sign(approvedB)),
    ]);
    expect(results.map((r) => r.json().result).sort()).toEqual(['credited', 'duplicate']);
    const lateReturn = await t.app.inject({
      method: 'GET',
      url: `/pay/return/paypal?token=${b.transactionId}`,
      headers: { host: 'localhost' },
    });
    expect(lateReturn.statusCode).toBe(303);
    expect(standIn.orders.get(b.transactionId)!.captures).toBe(1);
    expect(await ledgerOf(b.orderId)).toEqual({ balance: 200_000, events: 1 });

    // PAYMENT.CAPTURE.COMPLETED for an order credited already: nothing more
    const o = standIn.orders.get(b.transactionId)!;
    const completed = captureEvent(b.transactionId, o.captureId!, '10.00', 'WH-COMPLETED-B');
    expect((await post(completed, standIn.sign(completed))).json().result).toBe('ignored');

    // denied: the order fails
    const d = await submit();
    const denied = captureEvent(
      d.transactionId,
      '9DN00000000000001',
      '10.00',
      'WH-DENIED-D',
      'PAYMENT.CAPTURE.DENIED',
    );
    // PayPal posts every brand's events to the one webhook URL: another brand's host is no reason to refuse
    expect((await post(denied, standIn.sign(denied), 'wetalk.localhost')).json().result).toBe('failed');
    expect((await c.get('/web/queryPaymentStatus', { orderId: d.orderId })).body.data.status).toBe('failed');

    // cancelled at PayPal: back to Recharge, nothing captured; an unknown token is refused
    const cancel = await t.app.inject({
      method: 'GET',
      url: `/pay/cancel/paypal?token=${d.transactionId}`,
      headers: { host: 'localhost' },
    });
    expect(cancel.statusCode).toBe(303);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/pay/return/paypal?token=NOSUCHORDER000000',
      headers: { host: 'localhost' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().retcode).toBe(200046);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/pay/return/paypal?token=%3Cscript%3E',
      headers: { host: 'localhost' },
    });
    expect(bad.json().retcode).toBe(100001);
    expect(await ledgerOf(d.orderId)).toEqual({ balance: 200_000, events: 1 });
  });
});
