import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BalanceEvent } from '@numa/contract';
import { runAdmin } from '../src/cli/admin';
import { brandFlag, contextOn, type OpenContext } from '../src/cli/context';
import { openPostgres } from '../src/db/postgres';
import { ManualClock } from '../src/lib/clock';
import { sandboxSignatureHeader, signSandbox } from '../src/providers/payments/sandbox';
import {
  connect,
  credit,
  startChatApp,
  until,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';
import { signIn, testDbKind } from './helpers';

const secret = 'test-sandbox-secret-0123456789';
let t: ListeningApp;
const clock = new ManualClock();
const sockets: ChatClientSocket[] = [];
beforeAll(async () => {
  t = await startChatApp({
    clock,
    envOverrides: { PAYMENT_SANDBOX_SECRET: secret, PAYMENT_DAILY_ATTEMPTS: '12' },
  });
});
afterAll(async () => {
  sockets.forEach((s) => s.close());
  await t?.close();
});

let phoneSeq = 0;
const newUser = (host = 'localhost') =>
  signIn(
    t.app,
    {
      telCode: '1',
      phone: `41577${String(process.pid % 100).padStart(2, '0')}${String(phoneSeq++).padStart(3, '0')}`,
    },
    host,
  );
type Client = Awaited<ReturnType<typeof newUser>>;

const accountIdOf = async (c: Client) => {
  const phone = (await c.get('/web/getAccountInfo')).body.data.phone as string;
  const [row] = await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE phone = $1`, [phone]);
  return row!.id;
};
/** The invariant: the balance is the sum of the account's bills, and the last bill's after-balance. */
async function ledgerAddsUp(accountId: number) {
  const [row] = await t.db.query<{ balance: number; total: number; n: number }>(
    `SELECT a.balance, COALESCE(SUM(l.charge), 0)::bigint AS total, COUNT(l.id)::int AS n FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id WHERE a.id = $1 GROUP BY a.id`,
    [accountId],
  );
  expect(Number(row!.total)).toBe(Number(row!.balance));
  return { balance: Number(row!.balance), bills: row!.n };
}
const orderRow = async (id: string) =>
  (await t.db.query(`SELECT * FROM payment_orders WHERE id = $1`, [id]))[0];

/** Posts a signed (or not) notification body to the webhook. */
const notify = (body: string, opts: { host?: string; sign?: string | null; at?: number } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/pay/notify/sandbox',
    headers: {
      host: opts.host ?? 'localhost',
      'content-type': 'application/json',
      ...(opts.sign === null
        ? {}
        : {
            [sandboxSignatureHeader]:
              opts.sign ?? signSandbox(secret, body, Math.floor((opts.at ?? clock.now()) / 1000)),
          }),
    },
    payload: body,
  });
const paidEvent = (ref: string, amount: number, id = `evt_${ref}_paid`, currency = 'usd') =>
  JSON.stringify({ id, type: 'checkout.paid', created: 1, data: { ref, amount, currency } });

describe(`payments (${testDbKind})`, () => {
  it('offers the brand methods and amounts, tops up through the sandbox page once, and tells every socket the balance', async () => {
    const c = await newUser();
    const accountId = await accountIdOf(c);
    const methods = (await c.get('/web/getPaymentMethods')).body.data;
    expect(methods).toMatchObject({
      creditCard: true,
      paypal: true,
      wechatpay: true,
      usdtPay: true,
      needSetPhone: { creditCard: false },
    });
    const email = await signIn(t.app, { email: `pay${Date.now()}@example.com` });
    expect((await email.get('/web/getPaymentMethods')).body.data.needSetPhone).toMatchObject({
      creditCard: true,
      unionpay: true,
      paypal: false,
    });
    expect(
      (await email.post('/web/paySubmit', { payment_method: 'creditCard', productid: 'card_web_usd_10' }))
        .body.retcode,
    ).toBe(200043);
    const cloud = (await (await newUser('cloudnumber.localhost')).get('/web/getPaymentMethods')).body.data;
    expect(cloud).toMatchObject({ wechatpay: true, paypal: false, creditCard: false, usdtPay: false });

    // amounts exactly as spec 001 §9: presets, the custom range, no custom with PayPal, the brand's currency
    const refused = [
      { payment_method: 'creditCard', productid: 'card_web_usd_7' },
      { payment_method: 'creditCard', productid: 'card_web_cny_10' },
      { payment_method: 'creditCard', productid: 'wechatpay_web_usd_10' },
      { payment_method: 'creditCard', productid: 'card_web_usd_CUSTOM', custom_amount: 10.99 },
      { payment_method: 'creditCard', productid: 'card_web_usd_CUSTOM', custom_amount: 200.01 },
    ];
    for (const body of refused)
      expect((await c.post('/web/paySubmit', body)).body.retcode, JSON.stringify(body)).toBe(200025);
    expect((await c.post('/web/paypal/paySubmit', { productid: 'paypal_web_usd_CUSTOM' })).body.retcode).toBe(
      100001,
    );
    expect(
      (
        await c.post('/web/paySubmit', {
          payment_method: 'creditCard',
          productid: 'card_web_usd_10',
          custom_amount: 5,
        })
      ).body.retcode,
    ).toBe(100001);

    const s1 = await connect(t.url, c.token!);
    const s2 = await connect(t.url, c.token!);
    sockets.push(s1, s2);
    const events: number[] = [];
    s2.on('balance', (e) => events.push(BalanceEvent.parse(e).balance));

    // the provider sends the payer back to our own pages only
    expect(
      (
        await c.post('/web/paySubmit', {
          payment_method: 'creditCard',
          productid: 'card_web_usd_10',
          return_url: 'https://elsewhere.example/numbers',
        })
      ).body.retcode,
    ).toBe(100001);
    const sub = await c.post('/web/paySubmit', {
      payment_method: 'creditCard',
      productid: 'card_web_usd_CUSTOM',
      custom_amount: 20,
      return_url: 'http://localhost/numbers',
    });
    expect(sub.body.retcode).toBe(0);
    const { orderId, paymentUrl } = sub.body.data as { orderId: string; paymentUrl: string };
    expect(paymentUrl).toMatch(/^http:\/\/localhost\/pay\/sandbox\/sbx_[0-9a-f]{24}$/);
    const pageUrl = new URL(paymentUrl).pathname;
    const page = await t.app.inject({ url: pageUrl, headers: { host: 'localhost' } });
    expect(page.headers['content-type']).toContain('text/html');
    for (const name of ['Pay', 'Fail', 'Cancel']) expect(page.body).toContain(`>${name}</button>`);
    expect(page.body).toContain('20.00 USD');
    expect((await c.get('/web/queryPaymentStatus', { orderId })).body.data).toMatchObject({
      status: 'pending',
      amount: 20,
      gift: 3,
      balance: 0,
    });

    const got = new Promise<number>((resolve) => s1.once('balance', (e) => resolve(e.balance)));
    const pay = await t.app.inject({ method: 'POST', url: `${pageUrl}/pay`, headers: { host: 'localhost' } });
    expect(pay.statusCode).toBe(303);
    const after = await t.app.inject({ url: pay.headers.location as string, headers: { host: 'localhost' } });
    expect(after.body).toContain('answered HTTP 200');
    expect(after.body).toContain('>Send the notification again</button>');
    expect(after.body).toContain('<a class="back" href="http://localhost/numbers">Return to Numa</a>');
    expect(await got).toBe(23);
    await until(async () => events.includes(23));
    // "Send the notification again" by hand, then a replay 100 times and 20 at once: credited once
    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: 'POST', url: `${pageUrl}/resend`, headers: { host: 'localhost' } });
    const ref = pageUrl.split('/').pop()!;
    for (let i = 0; i < 100; i++) expect((await notify(paidEvent(ref, 200_000))).statusCode).toBe(200);
    await Promise.all(Array.from({ length: 20 }, () => notify(paidEvent(ref, 200_000))));
    // another event id for the same order: still once
    expect((await notify(paidEvent(ref, 200_000, 'evt_other'))).json().result).toBe('ignored');
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 230_000, bills: 1 });
    const [bill] = await t.db.query(`SELECT type, charge, options FROM ledger WHERE account_id = $1`, [
      accountId,
    ]);
    expect(bill).toMatchObject({
      type: 1,
      options: { amount: 20, gift: 3, purchaseMethod: 'creditCard', orderId },
    });
    expect((await c.get('/web/queryPaymentStatus', { orderId })).body.data).toMatchObject({
      status: 'paid',
      balance: 23,
    });
    expect((await c.post('/web/cancelPayment', { orderId })).body.data.status).toBe('paid');

    // histories: payment list (amounts, gift), bills with before/after, the month tab, CSV
    const realYm = new Date().toISOString().slice(0, 7);
    const payList = (await c.get('/web/getPaymentList', { date: realYm })).body.data;
    expect(payList).toMatchObject({
      totalRows: 1,
      paymentList: [{ method: 'creditCard', amount: 20, gifts: 3 }],
    });
    expect((await c.get('/web/getPaymentList', { date: '2020-01' })).body.data).toEqual({
      totalRows: 0,
      paymentList: [],
    });
    const bills = (await c.get('/web/getBillList', { ym: realYm })).body.data;
    expect(bills).toMatchObject({
      nextPage: null,
      list: [{ type: 1, charge: 23, beforeBalance: 0, afterBalance: 23 }],
    });
  });

  it("Cancel on the provider's page goes through our cancel URL: the order says cancelled, the payer goes back (issue 20)", async () => {
    const c = await newUser();
    const sub = await c.post('/web/paySubmit', {
      payment_method: 'creditCard',
      productid: 'card_web_usd_10',
      return_url: 'http://localhost/numbers',
    });
    const { orderId, paymentUrl } = sub.body.data as { orderId: string; paymentUrl: string };
    const pageUrl = new URL(paymentUrl).pathname;
    const ref = pageUrl.split('/').pop()!;
    const cancel = await t.app.inject({
      method: 'POST',
      url: `${pageUrl}/cancel`,
      headers: { host: 'localhost' },
    });
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe(`/pay/cancel/sandbox?ref=${ref}`);
    const back = await t.app.inject({
      url: cancel.headers.location as string,
      headers: { host: 'localhost' },
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('http://localhost/numbers');
    expect((await c.get('/web/queryPaymentStatus', { orderId })).body.data.status).toBe('cancelled');
    // again, or a made-up ref: nothing more; a malformed ref is refused
    expect(
      (await t.app.inject({ url: cancel.headers.location as string, headers: { host: 'localhost' } }))
        .statusCode,
    ).toBe(303);
    expect((await orderRow(orderId)).status).toBe('cancelled');
    const odd = await t.app.inject({ url: '/pay/cancel/sandbox?ref=nope', headers: { host: 'localhost' } });
    expect(odd.json().retcode).toBe(100001);
  });

  it('refuses forged, unsigned, stale, mismatched and other-brand notifications, and keeps orders to their owner', async () => {
    const c = await newUser();
    const accountId = await accountIdOf(c);
    const { orderId, paymentUrl } = (
      await c.post('/web/alipay/paySubmit', { productid: 'alipay_web_usd_50' })
    ).body.data;
    const ref = new URL(paymentUrl).pathname.split('/').pop()!;
    expect((await orderRow(orderId)).bonus).toBe(0); // numa: no bonus on presets
    const body = paidEvent(ref, 500_000);
    expect((await notify(body, { sign: null })).statusCode).toBe(403);
    expect(
      (
        await notify(body, {
          sign: signSandbox('another-secret-0123456789', body, Math.floor(clock.now() / 1000)),
        })
      ).statusCode,
    ).toBe(403);
    expect((await notify(body, { at: clock.now() - 3_600_000 })).statusCode).toBe(403);
    expect((await notify(paidEvent(ref, 400_000, 'evt_short'))).statusCode).toBe(400);
    expect((await notify(paidEvent(ref, 500_000, 'evt_cny', 'cny'))).statusCode).toBe(400);
    expect(
      (await notify(paidEvent(ref, 500_000, 'evt_brand'), { host: 'wephone.localhost' })).statusCode,
    ).toBe(400);
    expect((await notify(paidEvent('sbx_nope', 500_000, 'evt_nope'))).statusCode).toBe(400);
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 0, bills: 0 });
    const refused = await t.db.query(`SELECT result FROM payment_events WHERE order_id = $1 ORDER BY id`, [
      orderId,
    ]);
    expect(refused.map((r) => r.result)).toEqual(['refused: amount', 'refused: amount', 'refused: brand']);

    // another account can neither read nor cancel it
    const other = await newUser();
    expect((await other.get('/web/queryPaymentStatus', { orderId })).body.retcode).toBe(200046);
    expect((await other.post('/web/cancelPayment', { orderId })).body.retcode).toBe(200046);
    expect((await orderRow(orderId)).status).toBe('pending');
    // its owner's dialog closes: cancelled at the provider too; a late payment still credits
    expect((await c.post('/web/cancelPayment', { orderId })).body.data.status).toBe('cancelled');
    expect((await notify(body)).json().result).toBe('credited');
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 500_000, bills: 1 });

    // a failed payment closes the order and moves nothing
    const f = (
      await c.post('/web/paySubmit', { payment_method: 'wechatpay', productid: 'wechatpay_web_usd_10' })
    ).body.data;
    const fpage = new URL(f.paymentUrl).pathname;
    await t.app.inject({ method: 'POST', url: `${fpage}/fail`, headers: { host: 'localhost' } });
    expect((await orderRow(f.orderId)).status).toBe('failed');
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 500_000, bills: 1 });
  });

  it('never passes the daily limit under 50 concurrent submits, and expires orders from the jobs', async () => {
    const c = await newUser();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        c.post('/web/paySubmit', { payment_method: 'wechatpay', productid: 'wechatpay_web_usd_5' }),
      ),
    );
    const ok = results.filter((r) => r.body.retcode === 0).length;
    expect(ok).toBe(12);
    expect(results.filter((r) => r.body.retcode === 200040).length).toBe(38);
    const [{ n }] = (await t.db.query(`SELECT count(*)::int AS n FROM payment_orders WHERE account_id = $1`, [
      await accountIdOf(c),
    ])) as [{ n: number }];
    expect(n).toBe(12);

    // two hours later the pending ones are expired by the job; a crypto transfer waits 48 hours
    const d = await newUser();
    const crypto = (
      await d.post('/web/etherPay/paySubmit', {
        productid: 'crypto_web_usd_20',
        currency: 'USDT',
        network: 'TRC-20',
      })
    ).body.data;
    expect(crypto).toMatchObject({
      currency: 'USDT',
      network: 'TRC-20',
      rechargeAmount: '20.0000',
      cryptoToLegalRate: '1',
    });
    expect(crypto.walletAddress).toMatch(/^T/);
    clock.advance(2 * 3_600_000 + 60_000);
    await t.app.deps.jobs.drain();
    const rows = await t.db.query(`SELECT status, method FROM payment_orders WHERE account_id IN ($1, $2)`, [
      await accountIdOf(c),
      await accountIdOf(d),
    ]);
    expect(rows.filter((r) => r.method === 'wechatpay').every((r) => r.status === 'expired')).toBe(true);
    expect(rows.find((r) => r.method === 'usdtPay')!.status).toBe('pending');
  });

  it('lets the operator list and show orders, settle a stuck one by re-querying its provider, and refund once', async () => {
    const c = await newUser();
    const accountId = await accountIdOf(c);
    const phone = (await c.get('/web/getAccountInfo')).body.data.phone as string;
    const { orderId, paymentUrl } = (
      await c.post('/web/paySubmit', { payment_method: 'wechatpay', productid: 'wechatpay_web_usd_20' })
    ).body.data;
    const ref = new URL(paymentUrl).pathname.split('/').pop()!;
    // the provider took the money but its notification never arrived
    const event = {
      id: `evt_${ref}_paid`,
      type: 'checkout.paid',
      created: 1,
      data: { ref, amount: 200_000, currency: 'usd' },
    };
    await t.db.query(`UPDATE payment_sandbox_checkouts SET status = 'paid', last_event = $2 WHERE ref = $1`, [
      ref,
      JSON.stringify(event),
    ]);
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
      const code = await runAdmin(argv, { out: (l = '') => out.push(l), err: (l) => out.push(l) }, open);
      return { code, text: out.join('\n') };
    };
    expect((await admin('payment', 'list', '--account', `+1${phone}`)).text).toContain(
      `#${orderId}  pending  account ${accountId}`,
    );
    expect((await admin('payment', 'requery', orderId)).text).toBe('credited');
    expect((await admin('payment', 'requery', orderId)).text).toBe('already paid');
    expect((await admin('payment', 'show', orderId)).text).toMatch(
      /paid[\s\S]*evt_sbx_[0-9a-f]+_paid {2}credited/,
    );
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 200_000, bills: 1 });
    expect((await admin('payment', 'refund', orderId)).text).toBe('refunded');
    expect((await admin('payment', 'refund', orderId)).text).toBe('already refunded');
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 0, bills: 2 });
    expect((await admin('payment', 'show', 'x')).code).toBe(1);
    // banner ads from the operator's configuration (getAdConfig)
    expect(
      (
        await admin(
          'ad',
          'set',
          '--brand',
          'wephone',
          '--link',
          'https://ads.example/en',
          '--image',
          'https://ads.example/en.png',
          '--image-cn',
          'https://ads.example/zh.png',
        )
      ).code,
    ).toBe(0);
    const ad = (
      await t.app.inject({ url: '/web/getAdConfig', headers: { host: 'wephone.localhost' } })
    ).json().data;
    expect(ad).toEqual({
      bannerAdsRedirectUrl: 'https://ads.example/en',
      bannerAdsPictureUrl: 'https://ads.example/en.png',
      bannerAdsRedirectUrlCn: 'https://ads.example/en',
      bannerAdsPictureUrlCn: 'https://ads.example/zh.png',
    });
    expect(
      (
        await admin(
          'ad',
          'set',
          '--brand',
          'wephone',
          '--link',
          'javascript:x',
          '--image',
          'https://a.b/c.png',
        )
      ).code,
    ).toBe(1);
    expect((await admin('ad', 'clear', '--brand', 'wephone')).code).toBe(0);
    expect(
      (await t.app.inject({ url: '/web/getAdConfig', headers: { host: 'wephone.localhost' } })).json().data
        .bannerAdsPictureUrl,
    ).toBe('');
  });

  it('pages the month of bills by cursor, downloads it as CSV, lists SMS, and answers the rates page in both languages', async () => {
    const c = await newUser();
    const accountId = await accountIdOf(c);
    await t.db.tx(async (tx) => {
      for (const amount of [1, 2, 3]) await credit(tx, accountId, amount);
    });
    const ym = new Date().toISOString().slice(0, 7);
    const first = (await c.get('/web/getBillList', { ym, pageSize: '2' })).body.data;
    expect(first.list.map((b: { charge: number }) => b.charge)).toEqual([3, 2]);
    expect(first.list[0]).toMatchObject({ type: 9, beforeBalance: 3, afterBalance: 6 });
    const second = (await c.get('/web/getBillList', { ym, pageSize: '2', nextPage: first.nextPage })).body
      .data;
    expect(second).toMatchObject({ nextPage: null, list: [{ charge: 1, beforeBalance: 0 }] });
    // a page that ends the month exactly says so: no cursor to an empty page
    const whole = (await c.get('/web/getBillList', { ym, pageSize: '3' })).body.data;
    expect(whole.list.map((b: { _id: string }) => b._id)).toEqual(
      [...first.list, ...second.list].map((b) => b._id),
    );
    expect(whole.nextPage).toBeNull();
    // a cursor that is not one of this account's bills: nothing after it
    const other = await newUser();
    expect((await other.get('/web/getBillList', { ym, nextPage: first.nextPage })).body.data).toEqual({
      list: [],
      nextPage: null,
    });
    expect((await c.get('/web/getBillList', { ym: '2026-13' })).body.retcode).toBe(100001);
    expect((await c.get('/web/getBillList', { ym, nextPage: 'abc' })).body.retcode).toBe(100001);
    const csv = await t.app.inject({
      url: `/web/downloadBills?ym=${ym}`,
      headers: { host: 'localhost', 'auth-token': c.token! },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.trim().split('\r\n')).toHaveLength(4);
    expect(csv.body).toContain(',"Adjustment",3,3,6,');
    // the types named in the caller's language
    const zhCsv = await t.app.inject({
      url: `/web/downloadBills?ym=${ym}&languagecode=zh_cn`,
      headers: { host: 'localhost', 'auth-token': c.token! },
    });
    expect(zhCsv.body).toContain(',"调整",3,3,6,');
    expect(
      (await t.app.inject({ url: `/web/downloadBills?ym=${ym}`, headers: { host: 'localhost' } })).statusCode,
    ).toBe(401);
    expect((await c.get('/web/getNormalSmsList', { date: ym })).body.data).toEqual({
      totalRows: 0,
      smsList: [],
    });
    expect(await ledgerAddsUp(accountId)).toEqual({ balance: 60_000, bills: 3 });

    const rates = async (host: string, q: Record<string, string>, lang = 'en') =>
      (
        await t.app.inject({
          url: '/web/getCountryRates',
          query: { languagecode: lang, ...q },
          headers: { host },
        })
      ).json().data;
    const calls = await rates('localhost', { rateType: 'call' });
    expect(calls.totalRows).toBeGreaterThan(100);
    expect(calls.countryRateList).toHaveLength(100);
    const all = async (host: string, rateType: string, lang = 'en') => {
      const list = [];
      for (let pageNo = 1; ; pageNo++) {
        const page = await rates(host, { rateType, pageNo: String(pageNo) }, lang);
        list.push(...page.countryRateList);
        if (list.length >= page.totalRows) return { countryRateList: list };
      }
    };
    const sms = await all('localhost', 'sms');
    const zh = await all('localhost', 'sms', 'zh_cn');
    expect(sms.countryRateList.find((r: { countryCode: string }) => r.countryCode === '86').description).toBe(
      'China',
    );
    expect(zh.countryRateList.find((r: { countryCode: string }) => r.countryCode === '86').description).toBe(
      '中国',
    );
    const cloud = await all('cloudnumber.localhost', 'receive');
    expect(cloud.countryRateList.every((r: { commonLineRate: number }) => r.commonLineRate === 0.8)).toBe(
      true,
    );
  });

  it.skipIf(testDbKind !== 'postgres')(
    'tells the open sockets of an operator refund and credit made by the command in its own process (PostgreSQL NOTIFY)',
    async () => {
      const c = await newUser();
      const accountId = await accountIdOf(c);
      const { orderId, paymentUrl } = (
        await c.post('/web/paySubmit', { payment_method: 'creditCard', productid: 'card_web_usd_10' })
      ).body.data as { orderId: string; paymentUrl: string };
      await t.app.inject({
        method: 'POST',
        url: `${new URL(paymentUrl).pathname}/pay`,
        headers: { host: 'localhost' },
      });
      const s = await connect(t.url, c.token!);
      sockets.push(s);
      const events: number[] = [];
      s.on('balance', (e) => events.push(BalanceEvent.parse(e).balance));
      // the command's own database connection, as `npm run admin` opens it on DATABASE_URL
      const [{ schema }] = (await t.db.query<{ schema: string }>(`SELECT current_schema() AS schema`)) as [
        { schema: string },
      ];
      const admin = async (...argv: string[]) => {
        const out: string[] = [];
        const code = await runAdmin(
          argv,
          { out: (l = '') => out.push(l), err: (l) => out.push(l) },
          async (_f, o) =>
            contextOn(t.app.deps.env, await openPostgres(t.db.pgUrl!, { schema, max: 2 }), 'numa', o),
        );
        return { code, text: out.join('\n') };
      };
      expect((await admin('payment', 'refund', orderId)).text).toBe('refunded');
      await until(async () => events.includes(0));
      expect((await admin('account', 'credit', String(accountId), '2.5')).code).toBe(0);
      await until(async () => events.includes(2.5));
      // the top-up's own notice (10) may still reach the socket after it connected: only what follows the refund counts
      expect(events.slice(events.indexOf(0))).toEqual([0, 2.5]);
      expect(events.filter((b) => b !== 10 && b !== 0 && b !== 2.5)).toEqual([]);
      expect(await ledgerAddsUp(accountId)).toEqual({ balance: 25_000, bills: 3 });
    },
  );
});

// PayPal (Orders v2, verified webhooks) has its own suite: paypal.test.ts

describe(`Stripe adapter against a local fake of its API (${testDbKind})`, () => {
  let p: ListeningApp;
  let fake: Server;
  const webhookSecret = 'whsec_test_0123456789abcdef';
  const sessions = new Map<string, Record<string, unknown>>();
  const created: URLSearchParams[] = [];
  beforeAll(async () => {
    let seq = 0;
    fake = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const json = (status: number, v: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${seq}` });
          res.end(JSON.stringify(v));
        };
        if (req.headers.authorization !== 'Bearer sk_test_fake_key')
          return json(401, { error: { type: 'invalid_request_error', message: 'bad key' } });
        const url = new URL(req.url!, 'http://x');
        if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
          const form = new URLSearchParams(body);
          // $100 meets an outage, $50 a refused request (as Stripe answers them)
          const cents = form.get('line_items[0][price_data][unit_amount]');
          if (cents === '10000')
            return json(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
          if (cents === '5000')
            return json(400, { error: { type: 'invalid_request_error', message: 'Invalid currency' } });
          created.push(form);
          const id = `cs_test_${++seq}`;
          const s = {
            id,
            object: 'checkout.session',
            url: `https://checkout.stripe.com/c/pay/${id}`,
            amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
            currency: form.get('line_items[0][price_data][currency]'),
            payment_status: 'unpaid',
            status: 'open',
            payment_intent: `pi_${seq}`,
            client_reference_id: form.get('client_reference_id'),
          };
          sessions.set(id, s);
          return json(200, s);
        }
        const m = /^\/v1\/checkout\/sessions\/(cs_test_\d+)(\/expire)?$/.exec(url.pathname);
        if (m && sessions.has(m[1]!)) {
          const s = sessions.get(m[1]!)!;
          if (m[2]) s.status = 'expired';
          return json(200, s);
        }
        return json(404, { error: { type: 'invalid_request_error', message: 'no such thing' } });
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    p = await startChatApp({
      envOverrides: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_fake_key',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`,
      },
    });
  });
  afterAll(async () => {
    await p?.close();
    await new Promise((r) => fake?.close(r));
  });

  /** A Checkout Session event as Stripe documents and sends it (API version 2025), signed with the SDK's test header. */
  const event = (type: string, session: Record<string, unknown>, id: string) => {
    const payload = JSON.stringify({
      id,
      object: 'event',
      api_version: '2025-10-29.clover',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: session },
    });
    return {
      payload,
      header: new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    };
  };
  const post = (e: { payload: string; header: string }) =>
    p.app.inject({
      method: 'POST',
      url: '/pay/notify/stripe',
      headers: { host: 'localhost', 'content-type': 'application/json', 'stripe-signature': e.header },
      payload: e.payload,
    });

  it('opens Checkout Sessions per method and credits checkout.session.completed / async events once, verified by signature', async () => {
    const c = await signIn(p.app, {
      telCode: '1',
      phone: `41599${String(process.pid % 100).padStart(2, '0')}001`,
    });
    const card = (
      await c.post('/web/paySubmit', { payment_method: 'creditCard', productid: 'card_web_usd_10' })
    ).body.data;
    expect(card.paymentUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+$/);
    expect(created[0]!.get('allowed_payment_method_types[0]')).toBe('card');
    expect(created[0]!.get('line_items[0][price_data][unit_amount]')).toBe('1000');
    expect(created[0]!.get('client_reference_id')).toBe(card.orderId);
    const wechat = (
      await c.post('/web/paySubmit', { payment_method: 'wechatpay', productid: 'wechatpay_web_usd_20' })
    ).body.data;
    expect(created[1]!.get('allowed_payment_method_types[0]')).toBe('wechat_pay');
    expect(created[1]!.get('payment_method_options[wechat_pay][client]')).toBe('web');
    // Stripe down: recharge temporarily unavailable; a checkout it refuses: order submission failed
    const retcodeOf = async (productid: string) =>
      (await c.post('/web/paySubmit', { payment_method: 'creditCard', productid })).body.retcode;
    expect(await retcodeOf('card_web_usd_100')).toBe(200041);
    expect(await retcodeOf('card_web_usd_50')).toBe(200042);
    // crypto is not Stripe's: it stays on the sandbox
    expect(
      (await c.post('/web/etherPay/paySubmit', { productid: 'crypto_web_usd_20', currency: 'ETH' })).body.data
        .paymentUrl,
    ).toMatch(/\/pay\/sandbox\//);

    const cardSession = {
      ...sessions.get(new URL(card.paymentUrl).pathname.split('/').pop()!)!,
      payment_status: 'paid',
      status: 'complete',
    };
    const completed = event('checkout.session.completed', cardSession, 'evt_1Completed');
    // a forged signature, and an unsigned body, move nothing
    expect(
      (
        await post({
          payload: completed.payload,
          header: completed.header.replace(/v1=[0-9a-f]+/, 'v1=' + '0'.repeat(64)),
        })
      ).statusCode,
    ).toBe(403);
    expect((await post({ payload: completed.payload, header: '' })).statusCode).toBe(403);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(completed)));
    expect(answers.map((r) => r.json().result).sort()).toEqual(['credited', ...Array(9).fill('duplicate')]);

    // WeChat Pay settles later: completed unpaid is ignored, async_payment_succeeded credits
    const wechatSession = sessions.get(new URL(wechat.paymentUrl).pathname.split('/').pop()!)!;
    expect(
      (await post(event('checkout.session.completed', wechatSession, 'evt_2Completed'))).json().result,
    ).toBe('ignored');
    expect(
      (
        await post(
          event(
            'checkout.session.async_payment_succeeded',
            { ...wechatSession, payment_status: 'paid' },
            'evt_2Async',
          ),
        )
      ).json().result,
    ).toBe('credited');
    const [row] = await p.db.query(
      `SELECT a.balance, (SELECT sum(charge) FROM ledger WHERE account_id = a.id)::bigint AS total FROM accounts a JOIN payment_orders o ON o.account_id = a.id WHERE o.id = $1`,
      [card.orderId],
    );
    // numa: no bonus on presets; 10 + 20
    expect(Number(row.balance)).toBe(300_000);
    expect(Number(row.total)).toBe(300_000);
    // closing a pending Stripe order expires its session
    const third = (await c.post('/web/alipay/paySubmit', { productid: 'alipay_web_usd_5' })).body.data;
    expect((await c.post('/web/cancelPayment', { orderId: third.orderId })).body.data.status).toBe(
      'cancelled',
    );
    expect(sessions.get(new URL(third.paymentUrl).pathname.split('/').pop()!)!.status).toBe('expired');
  });
});
