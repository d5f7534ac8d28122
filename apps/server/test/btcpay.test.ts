import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '@numa/contract';
import { ManualClock } from '../src/lib/clock';
import { BtcpayPayments, defaultBtcpayMethods } from '../src/providers/payments/btcpay';
import {
  compareDecimal,
  decimalToMinor,
  minorToDecimal,
  mulDecimal,
  roundDecimal,
  trimDecimal,
} from '../src/providers/payments/decimal';
import {
  ForgedNotification,
  ProviderUnavailable,
  type IncomingWebhook,
} from '../src/providers/payments/port';
import {
  apiKey,
  BtcpayStandIn,
  btcpayEvent,
  btcpaySig,
  storeId,
  webhookSecret,
} from './fixtures/btcpay-standin';
import type { Json } from './fixtures/paypal-standin';
import { signIn, startTestApp, testDbKind, type TestApp } from './helpers';

const standIn = new BtcpayStandIn();
beforeAll(async () => {
  await standIn.start();
});
afterAll(async () => {
  await standIn.close();
});

const clock = new ManualClock();
const adapter = (fetchImpl?: typeof fetch) =>
  new BtcpayPayments(
    {
      url: standIn.url,
      apiKey,
      storeId,
      webhookSecret,
      paymentMethods: { ...defaultBtcpayMethods, 'USDT.TRC-20': 'USDT-TRON', 'USDC.Polygon': 'USDC-POLYGON' },
    },
    clock,
    fetchImpl,
  );
const hook = (body: string, sig: string | null = btcpaySig(body)): IncomingWebhook => ({
  rawBody: body,
  headers: sig === null ? {} : { 'btcpay-sig': sig },
  url: '/pay/notify/btcpay',
});
const order = (orderId: number, crypto?: { currency: string; network: string | null }) => ({
  orderId,
  brand: 'numa',
  method: crypto ? `${crypto.currency.toLowerCase()}Pay` : 'cryptoPay',
  amount: toMinor(20),
  currency: 'usd',
  description: `Numa top-up #${orderId}`,
  baseUrl: 'https://numa.example.com',
  returnUrl: null,
  ...(crypto ? { crypto: { ...crypto, amount: '0', address: '' } } : {}),
});

describe('decimal text in integer arithmetic', () => {
  it('compares, rounds and converts crypto and fiat amounts exactly', () => {
    expect(compareDecimal('0.30000000000000000001', '0.3')).toBe(1);
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('-0.000000000000000001', '0')).toBe(-1);
    expect(compareDecimal('12345678901234567890.5', '12345678901234567890.49')).toBe(1);
    expect(roundDecimal('0.006666392318244170', 8, 'up')).toBe('0.00666640');
    expect(roundDecimal('0.006666390000000000', 8, 'up')).toBe('0.00666639');
    expect(roundDecimal('3000.123456789', 8, 'down')).toBe('3000.12345678');
    expect(roundDecimal('1.005', 2, 'down')).toBe('1.00');
    expect(roundDecimal('1.005', 2, 'up')).toBe('1.01');
    expect(trimDecimal('20.00000000')).toBe('20');
    expect(trimDecimal('0.00666640')).toBe('0.0066664');
    expect(decimalToMinor('20.00')).toBe(200_000);
    expect(decimalToMinor('0.1')).toBe(1000);
    expect(decimalToMinor('1.00005')).toBeNull();
    expect(decimalToMinor('1.000000')).toBe(10_000);
    expect(decimalToMinor('1e3')).toBeNull();
    expect(minorToDecimal(toMinor(20), 2)).toBe('20.00');
    expect(minorToDecimal(toMinor(0.5), 2)).toBe('0.50');
    expect(() => minorToDecimal(toMinor(0.005), 2)).toThrow();
    // exact products (checked against Python's decimal module at 80 digits)
    expect(mulDecimal('0.006666392318244170', '3000.123456789')).toBe('19.999999966122334691346170130');
    expect(roundDecimal(mulDecimal('0.003', '3000.123456789'), 4, 'down')).toBe('9.0003');
  });
});

describe('BTCPay webhook signatures', () => {
  it('computes BTCPay-Sig as documented; WebCrypto agrees on every fixture', async () => {
    const dir = new URL('./fixtures/btcpay/', import.meta.url);
    const bodies = readdirSync(dir)
      .filter((f) => f.startsWith('webhook-'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'));
    expect(bodies.length).toBe(6);
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(webhookSecret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    for (const body of bodies) {
      const independent = Buffer.from(
        await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)),
      ).toString('hex');
      expect(btcpaySig(body)).toBe(`sha256=${independent}`);
    }
  });

  it('refuses unsigned, tampered, wrongly keyed and other stores’ deliveries', async () => {
    const p = adapter();
    const inv = await p.createCheckout(order(1));
    const body = btcpayEvent('webhook-invoice-received-payment', inv.ref);
    expect(await p.parseNotification(hook(body))).toBeNull();
    const refused = (w: IncomingWebhook) =>
      expect(p.parseNotification(w)).rejects.toBeInstanceOf(ForgedNotification);
    await refused(hook(body, null));
    await refused(hook(body, 'sha256=zz'));
    await refused(hook(body, btcpaySig(body).replace('sha256=', 'sha1=')));
    await refused(hook(body.replace('"0.003"', '"3.000"'), btcpaySig(body)));
    await refused(hook(body, btcpaySig(body, 'another-secret-0123456789')));
    const otherStore = btcpayEvent(
      'webhook-invoice-settled',
      inv.ref,
      (e) => (e.storeId = 'AnotherStore1234567890'),
    );
    await refused(hook(otherStore));
    // signed, but about an invoice BTCPay does not have
    await refused(hook(btcpayEvent('webhook-invoice-settled', 'NoSuchInvoice123')));
    await refused(hook('{"not":"an event"}'));
  });
});

describe('BTCPay adapter against a stand-in of its Greenfield API', () => {
  it('offers only the coins the store has enabled', async () => {
    const p = adapter();
    expect([...(await p.servedMethods())].sort()).toEqual(['cryptoPay', 'ethPay', 'usdtPay']);
    expect(await p.servesTransfer('USDT', 'TRC-20')).toBe(true);
    expect(await p.servesTransfer('USDT', 'ERC-20')).toBe(false);
    expect(await p.servesTransfer('USDC', 'Polygon')).toBe(false);
    expect(await p.servesTransfer('ETH', null)).toBe(true);
    expect(await p.servesTransfer('BCH', null)).toBe(false);
    // BTCPay unreachable from the start: nothing is offered (fail closed)
    const dead = adapter((async () => {
      throw new Error('ECONNREFUSED');
    }) as typeof fetch);
    expect((await dead.servedMethods()).size).toBe(0);
  });

  it("opens invoices, quotes a direct transfer from BTCPay's destination and due amount, and settles by the invoice", async () => {
    const p = adapter();
    const before = standIn.requests.length;
    const eth = await p.createCheckout(order(7, { currency: 'ETH', network: null }));
    const created = standIn.requests.slice(before).find((r) => r.method === 'POST')!;
    expect(created.body).toMatchObject({
      amount: '20.00',
      currency: 'USD',
      metadata: { orderId: '7', brand: 'numa' },
      checkout: {
        paymentMethods: ['ETH-CHAIN'],
        defaultPaymentMethod: 'ETH-CHAIN',
        redirectURL: 'https://numa.example.com/account/credit',
        monitoringMinutes: 2880,
      },
    });
    const due = standIn.due(eth.ref, 'ETH-CHAIN');
    // 20 / 3000.123456789 rounded up to 18 decimals (Python's decimal module agrees)
    expect(due).toBe('0.006666392329536261');
    expect(eth).toMatchObject({
      paymentUrl: `https://btcpay.example.com/i/${eth.ref}`,
      transfer: {
        currency: 'ETH',
        network: null,
        amount: '0.0066664',
        address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        rate: '3000.12345678',
      },
    });
    const tron = await p.createCheckout(order(8, { currency: 'USDT', network: 'TRC-20' }));
    expect(tron).toMatchObject({
      transfer: { amount: '19.996001', address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' },
    });
    await expect(p.createCheckout(order(9, { currency: 'USDT', network: 'ERC-20' }))).rejects.toBeInstanceOf(
      ProviderUnavailable,
    );
    const hosted = await p.createCheckout(order(10));
    expect(hosted).toEqual({ ref: hosted.ref, paymentUrl: `https://btcpay.example.com/i/${hosted.ref}` });

    // paid in full (the quoted, rounded-up amount): settled → paid with the invoice's amount
    expect(await p.query(eth.ref)).toBe('pending');
    standIn.pay(eth.ref, 'ETH-CHAIN', '0.0066664');
    expect(await p.parseNotification(hook(btcpayEvent('webhook-invoice-settled', eth.ref)))).toBeNull();
    standIn.setStatus(eth.ref, 'Settled');
    const settled = btcpayEvent('webhook-invoice-settled', eth.ref);
    expect(await p.parseNotification(hook(settled))).toMatchObject({
      kind: 'payment',
      eventId: 'BDhDbzNoiHgyFLuDsMfXqt',
      ref: eth.ref,
      paymentRef: eth.ref,
      outcome: 'paid',
      amount: toMinor(20),
      currency: 'usd',
    });
    // a redelivery is a new delivery id naming the original: the same event
    const again = btcpayEvent('webhook-invoice-settled', eth.ref, (e) => {
      e.deliveryId = 'NewDeliveryId000000001';
      e.isRedelivery = true;
    });
    expect(await p.parseNotification(hook(again))).toMatchObject({ eventId: 'BDhDbzNoiHgyFLuDsMfXqt' });
    // an expiry told after the settlement follows the invoice (paid), not the event
    expect(await p.parseNotification(hook(btcpayEvent('webhook-invoice-expired', eth.ref)))).toMatchObject({
      outcome: 'paid',
    });
    expect(await p.query(eth.ref)).toMatchObject({ outcome: 'paid', amount: toMinor(20) });

    // underpaid, settled by the store's tolerance: reported as what arrived, never as the full amount
    standIn.pay(tron.ref, 'USDT-TRON', '19.5');
    standIn.setStatus(tron.ref, 'Settled');
    expect(await p.parseNotification(hook(btcpayEvent('webhook-invoice-settled', tron.ref)))).toMatchObject({
      outcome: 'paid',
      amount: decimalToMinor(roundDecimal(mulDecimal('19.5', '1.0002'), 4, 'down')),
    });
    // marked settled by the store's operator: credited as the invoice
    expect(
      await p.parseNotification(
        hook(btcpayEvent('webhook-invoice-settled', tron.ref, (e) => (e.manuallyMarked = true))),
      ),
    ).toMatchObject({ amount: toMinor(20) });

    // expired (partly paid) and invalid: failed
    standIn.pay(hosted.ref, 'ETH-CHAIN', '0.001');
    standIn.setStatus(hosted.ref, 'Expired', 'PaidPartial');
    expect(
      await p.parseNotification(
        hook(btcpayEvent('webhook-invoice-expired', hosted.ref, (e) => (e.partiallyPaid = true))),
      ),
    ).toMatchObject({ outcome: 'failed', ref: hosted.ref });
    standIn.setStatus(hosted.ref, 'Invalid', 'Marked');
    expect(await p.parseNotification(hook(btcpayEvent('webhook-invoice-invalid', hosted.ref)))).toMatchObject(
      {
        outcome: 'failed',
      },
    );
    // payments on their way move nothing
    for (const name of ['webhook-invoice-processing', 'webhook-invoice-payment-settled'])
      expect(await p.parseNotification(hook(btcpayEvent(name, hosted.ref)))).toBeNull();
    expect(await p.query('NoSuchInvoice123')).toBe('unknown');

    // refund: a pull payment in the coin that was paid; the operator's list of settled invoices
    await p.refund(eth.ref, toMinor(20));
    expect(standIn.requests.find((r) => r.path.endsWith(`/invoices/${eth.ref}/refund`))!.body).toMatchObject({
      refundVariant: 'Custom',
      customAmount: '20.00',
      customCurrency: 'USD',
      payoutMethods: ['ETH-CHAIN'],
    });
    const listed = await p.listTransactions(
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() + 3_600_000),
    );
    expect(listed.map((x) => x.id).sort()).toEqual([eth.ref, tron.ref].sort());
    expect(listed.every((x) => x.kind === 'payment' && x.currency === 'usd')).toBe(true);

    standIn.down = true;
    try {
      await expect(p.createCheckout(order(11))).rejects.toBeInstanceOf(ProviderUnavailable);
      expect(await p.query(eth.ref)).toBe('unknown');
    } finally {
      standIn.down = false;
    }
  });
});

describe(`BTCPay through the app (${testDbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ payments: adapter() });
  });
  afterAll(async () => {
    await t?.close();
  });
  const post = (body: string, sig: string = btcpaySig(body)) =>
    t.app.inject({
      method: 'POST',
      url: '/pay/notify/btcpay',
      headers: { host: 'localhost', 'content-type': 'application/json', 'btcpay-sig': sig },
      payload: body,
    });
  const ledgerOf = async (orderId: string) => {
    const [row] = await t.db.query<{ balance: string; total: string | null; events: string; status: string }>(
      `SELECT a.balance, o.status, (SELECT sum(charge) FROM ledger WHERE account_id = a.id)::bigint AS total,
              (SELECT count(*) FROM payment_events e WHERE e.order_id = o.id)::int AS events
       FROM accounts a JOIN payment_orders o ON o.account_id = a.id WHERE o.id = $1`,
      [orderId],
    );
    expect(Number(row!.total ?? 0)).toBe(Number(row!.balance));
    return { balance: Number(row!.balance), events: Number(row!.events), status: row!.status };
  };

  it('offers the store’s coins, shows BTCPay’s quote, and credits a settled invoice once', async () => {
    const c = await signIn(t.app, { email: `btcpay${process.pid}@example.com` });
    const methods = (await c.get('/web/getPaymentMethods')).body.data;
    expect(methods).toMatchObject({
      cryptoPay: true,
      ethPay: true,
      usdtPay: true,
      usdcPay: false,
      bchPay: false,
      tusdPay: false,
    });
    // the card methods' provider here is BTCPay too (this app's only one): not offered
    expect(methods.creditCard).toBe(false);
    expect(
      (await c.post('/web/paySubmit', { payment_method: 'creditCard', productid: 'card_web_usd_10' })).body
        .retcode,
    ).toBe(200044);
    expect(
      (
        await c.post('/web/etherPay/paySubmit', {
          productid: 'crypto_web_usd_20',
          currency: 'USDC',
          network: 'Polygon',
        })
      ).body.retcode,
    ).toBe(200044);
    expect(
      (
        await c.post('/web/etherPay/paySubmit', {
          productid: 'crypto_web_usd_20',
          currency: 'USDT',
          network: 'ERC-20',
        })
      ).body.retcode,
    ).toBe(200044);

    const sub = (await c.post('/web/etherPay/paySubmit', { productid: 'crypto_web_usd_20', currency: 'ETH' }))
      .body;
    expect(sub.retcode).toBe(0);
    const invoiceId = new URL(sub.data.paymentUrl).pathname.split('/').pop()!;
    expect(sub.data).toMatchObject({
      currency: 'ETH',
      network: null,
      rechargeAmount: '0.0066664',
      walletAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      cryptoToLegalRate: '3000.12345678',
    });
    const [stored] = await t.db.query<{ crypto: Json; provider: string; provider_ref: string }>(
      `SELECT crypto, provider, provider_ref FROM payment_orders WHERE id = $1`,
      [sub.data.orderId],
    );
    expect(stored).toMatchObject({ provider: 'btcpay', provider_ref: invoiceId });
    expect(typeof stored!.crypto === 'string' ? JSON.parse(stored!.crypto) : stored!.crypto).toMatchObject({
      amount: '0.0066664',
      address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    });

    // forged: nothing stored; a payment on its way: nothing moves; settled too early (out of order): nothing
    const settled = btcpayEvent('webhook-invoice-settled', invoiceId);
    expect((await post(settled, btcpaySig(settled, 'not-the-secret-0123'))).statusCode).toBe(403);
    expect((await post(btcpayEvent('webhook-invoice-received-payment', invoiceId))).json().result).toBe(
      'ignored',
    );
    expect((await post(settled)).json().result).toBe('ignored');
    expect(await ledgerOf(sub.data.orderId)).toEqual({ balance: 0, events: 0, status: 'pending' });

    standIn.pay(invoiceId, 'ETH-CHAIN', sub.data.rechargeAmount);
    standIn.setStatus(invoiceId, 'Settled');
    const redelivered = btcpayEvent('webhook-invoice-settled', invoiceId, (e) => {
      e.deliveryId = 'Redelivery0000000000001';
      e.isRedelivery = true;
    });
    const answers = await Promise.all([...Array.from({ length: 5 }, () => post(settled)), post(redelivered)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.json().result).sort()).toEqual(['credited', ...Array(5).fill('duplicate')]);
    const after = await ledgerOf(sub.data.orderId);
    expect(after).toMatchObject({ events: 1, status: 'paid' });
    expect(after.balance).toBeGreaterThanOrEqual(200_000);

    // an underpaid invoice settled within the store's tolerance: refused and recorded, not credited
    const hosted = (await c.post('/web/cryptoCurrency/paySubmit', { productid: 'cryptopay_web_usd_20' })).body
      .data;
    const hostedId = new URL(hosted.paymentUrl).pathname.split('/').pop()!;
    standIn.pay(hostedId, 'ETH-CHAIN', '0.006');
    standIn.setStatus(hostedId, 'Settled');
    const short = btcpayEvent(
      'webhook-invoice-settled',
      hostedId,
      (e) => (e.deliveryId = e.originalDeliveryId = 'ShortDelivery000000001'),
    );
    expect((await post(short)).statusCode).toBe(400);
    expect(await ledgerOf(hosted.orderId)).toMatchObject({
      balance: after.balance,
      events: 1,
      status: 'pending',
    });

    // expired: the order fails
    const third = (
      await c.post('/web/etherPay/paySubmit', {
        productid: 'crypto_web_usd_10',
        currency: 'USDT',
        network: 'TRC-20',
      })
    ).body.data;
    const thirdId = new URL(third.paymentUrl).pathname.split('/').pop()!;
    standIn.setStatus(thirdId, 'Expired');
    const expired = btcpayEvent(
      'webhook-invoice-expired',
      thirdId,
      (e) => (e.deliveryId = e.originalDeliveryId = 'ExpiredDelivery0000001'),
    );
    expect((await post(expired)).json().result).toBe('failed');
    expect(await ledgerOf(third.orderId)).toMatchObject({ balance: after.balance, status: 'failed' });
  });
});
