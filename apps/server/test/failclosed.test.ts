import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { constants, retmsg } from '@numa/contract';
import { buildApp } from '../src/app';
import { EnvSchema, loadEnv } from '../src/env';
import type { ProviderKind } from '../src/providers/kind';
import { stripeMethodTypes } from '../src/providers/payments/stripe';
import { providerKinds, refusal, servedMethods } from '../src/providers/requirements';
import { credit } from './chat-support';
import { client, openTestDb, testDbKind, testEnv, type TestDb } from './helpers';
import { bundled, serverDir } from './spawned';

/*
 * Issue 18 §1: production is fail-closed. A production start never runs a simulator or the payment
 * sandbox: one that would, or lacks a real provider's variable, is refused with one message naming
 * every variable; a payment method with no real provider is not offered; the sandbox's routes do
 * not exist; DEMO_MODE=1 opts a demo in, with a banner on every page. Development does not change.
 */

const hex32 = (c: string) => c.repeat(32);

/** A production environment with every kind real or switched off, Stripe the only payment provider. */
const stripeOnly: Record<string, string | undefined> = {
  NODE_ENV: 'production',
  CARRIER: 'twilio',
  TWILIO_ACCOUNT_SID: `AC${hex32('a')}`,
  TWILIO_AUTH_TOKEN: 'twilio-auth-token-0123456789',
  TWILIO_WEBHOOK_BASE_URL: 'https://numa.example.com',
  TWILIO_MESSAGING_SERVICE_SID: `MG${hex32('b')}`,
  NUMBER_SUPPLY: 'none',
  CODE_SUPPLIER: 'none',
  MAIL: 'none',
  STT: 'none',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_failclosed',
  STRIPE_WEBHOOK_SECRET: 'whsec_failclosed_0123',
};

/** Every variable a kind's declaration names, with what it does. */
const declared = (kinds: readonly ProviderKind[]) =>
  kinds.flatMap((k) => k.real.flatMap((a) => a.needs.map((n) => ({ kind: k, ...n }))));

describe('the production start (configuration only)', () => {
  it('refuses the default environment in one message naming every variable, what each does, and how to switch off', () => {
    const message = refusal(loadEnv({ NODE_ENV: 'production' }));
    expect(message).not.toBeNull();
    const text = message!;
    expect(text).toMatch(/^Numa refuses to start: NODE_ENV=production and 6 providers are not set up/);
    // every selector, every variable of every real adapter (with its text, once), every off switch
    for (const kind of providerKinds) {
      expect(text, kind.selector).toContain(kind.selector);
      if (!kind.methods) expect(text).toContain(`${kind.selector} is not set`);
      if (kind.off && !kind.methods)
        expect(text).toContain(`${kind.selector}=${kind.off.value}: ${kind.off.effect}`);
    }
    for (const need of declared(providerKinds)) {
      expect(text, need.name).toMatch(new RegExp(`\\n\\s+${need.name}\\s+`));
      expect(text.split(`${need.name.padEnd(30)} ${need.does}`).length - 1, need.name).toBe(1);
    }
    for (const line of [
      'CARRIER=twilio',
      'NUMBER_SUPPLY=twilio',
      'CODE_SUPPLIER=smsactivate',
      'MAIL=smtp (implied when SMTP_URL is set)',
      'PAYMENT_PROVIDER=stripe (card, UnionPay, Alipay, WeChat Pay)',
      'PAYMENT_PAYPAL=paypal (PayPal)',
      'PAYMENT_CRYPTO=btcpay (crypto)',
      'TWILIO_MESSAGING_SERVICE_SID   the Messaging Service (MG…) that sends sign-in and verification codes by SMS',
      'SMS/MMS carrier (it sends and receives every text, picture, call and SMS code): CARRIER is not set. It cannot be switched off; set:',
      'Speech-to-text (it transcribes voicemail and voice messages): STT is not set. Set one of:',
      'set DEMO_MODE=1',
    ])
      expect(text).toContain(line);
  });

  it('names a simulator chosen explicitly, and only what a chosen adapter lacks', () => {
    const text = refusal(
      loadEnv({
        ...stripeOnly,
        CARRIER: 'simulator',
        STT: 'simulator',
        PAYMENT_PAYPAL: 'sandbox',
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_WEBHOOK_SECRET: undefined,
        CODE_SUPPLIER: 'smsactivate',
      }),
    )!;
    expect(text).toContain('CARRIER=simulator is the built-in simulator, never used in production');
    expect(text).toContain('STT=simulator is the built-in simulator');
    expect(text).toContain(
      'PAYMENT_PAYPAL=sandbox is the built-in simulator, never used in production (it would credit top-ups that nobody paid)',
    );
    expect(text).toMatch(/PAYMENT_PROVIDER=stripe needs:\n\s+STRIPE_WEBHOOK_SECRET\s+the signing secret/);
    expect(text).not.toMatch(/\n\s+STRIPE_SECRET_KEY /);
    expect(text).toMatch(/CODE_SUPPLIER=smsactivate needs:\n\s+CODE_SUPPLIER_API_KEY /);
    // Twilio's variables are set: the carrier's options list none of them
    expect(text).not.toContain('TWILIO_ACCOUNT_SID');
    // the Twilio number supply needs the Twilio carrier
    expect(
      refusal(
        loadEnv({
          ...stripeOnly,
          CARRIER: 'simulator',
          DEMO_MODE: '1',
          NUMBER_SUPPLY: 'twilio',
        }),
      ),
    ).toMatch(/NUMBER_SUPPLY=twilio needs:\n\s+CARRIER=twilio: the numbers it buys/);
  });

  it('starts with every kind real or switched off, and with a payment group unset (not offered)', () => {
    const env = loadEnv(stripeOnly);
    expect(refusal(env)).toBeNull();
    expect(env.PAYMENT_PAYPAL).toBeUndefined();
    expect(env.PAYMENT_CRYPTO).toBeUndefined();
    expect(servedMethods(env).sort()).toEqual(Object.keys(stripeMethodTypes).sort());
    // SMTP_URL alone is MAIL=smtp
    expect(
      loadEnv({ ...stripeOnly, MAIL: undefined, SMTP_URL: 'smtps://u:p@smtp.example.com:465' }).MAIL,
    ).toBe('smtp');
    // no payment group at all is refused: top-up is how every balance fills
    expect(refusal(loadEnv({ ...stripeOnly, PAYMENT_PROVIDER: 'none' }))).toMatch(
      /Payments: no payment method has a real provider/,
    );
  });

  it("refuses a provider's test mode in production: anyone could pay with a test card", () => {
    expect(refusal(loadEnv({ ...stripeOnly, STRIPE_SECRET_KEY: 'sk_test_failclosed' }))).toMatch(
      /PAYMENT_PROVIDER=stripe needs:\n\s+a live STRIPE_SECRET_KEY \(sk_live_…\): this one is not, and in test mode anyone tops up with a test card/,
    );
    expect(refusal(loadEnv({ ...stripeOnly, STRIPE_SECRET_KEY: 'rk_live_restricted' }))).toBeNull();
    const paypal = {
      ...stripeOnly,
      PAYMENT_PAYPAL: 'paypal',
      PAYPAL_CLIENT_ID: 'paypal-client-id',
      PAYPAL_CLIENT_SECRET: 'paypal-client-secret',
      PAYPAL_WEBHOOK_ID: 'WH0123456789',
    };
    expect(refusal(loadEnv(paypal))).toContain(
      "PAYPAL_ENVIRONMENT=live: it is sandbox, and PayPal's sandbox takes no real money",
    );
    expect(refusal(loadEnv({ ...paypal, PAYPAL_ENVIRONMENT: 'live' }))).toBeNull();
    // and a demo, whose pages promise no real money, takes no live credentials
    expect(
      refusal(
        loadEnv({ ...paypal, STRIPE_SECRET_KEY: 'sk_test_x1', PAYPAL_ENVIRONMENT: 'live', DEMO_MODE: '1' }),
      ),
    ).toContain('PAYPAL_ENVIRONMENT=sandbox: DEMO_MODE=1 promises no real money, and live PayPal takes it');
  });

  it('lets a demo opt in with DEMO_MODE=1 (simulators are then the defaults), never with a live Stripe key', () => {
    const demo = loadEnv({ NODE_ENV: 'production', DEMO_MODE: '1' });
    expect(refusal(demo)).toBeNull();
    expect(demo).toMatchObject({
      DEMO_MODE: true,
      CARRIER: 'simulator',
      NUMBER_SUPPLY: 'simulator',
      CODE_SUPPLIER: 'simulator',
      MAIL: 'simulator',
      STT: 'simulator',
      PAYMENT_PROVIDER: 'sandbox',
      PAYMENT_PAYPAL: 'sandbox',
      PAYMENT_CRYPTO: 'sandbox',
    });
    expect(
      refusal(
        loadEnv({
          NODE_ENV: 'production',
          DEMO_MODE: '1',
          ...pick(stripeOnly, /^(PAYMENT|STRIPE)_/),
          STRIPE_SECRET_KEY: 'sk_live_x1',
        }),
      ),
    ).toContain(
      'a test STRIPE_SECRET_KEY (sk_test_…): DEMO_MODE=1 promises no real money, and this key is live',
    );
  });

  it('keeps development and tests as they were: every simulator and the sandbox by default, never refused', () => {
    for (const source of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }]) {
      const env = loadEnv(source);
      expect(refusal(env)).toBeNull();
      expect(env).toMatchObject({
        DEMO_MODE: false,
        CARRIER: 'simulator',
        NUMBER_SUPPLY: 'simulator',
        CODE_SUPPLIER: 'simulator',
        MAIL: 'simulator',
        STT: 'simulator',
        PAYMENT_PROVIDER: 'sandbox',
        PAYMENT_PAYPAL: 'sandbox',
        PAYMENT_CRYPTO: 'sandbox',
      });
      expect(servedMethods(env).sort()).toEqual([...constants.paymentMethods].sort());
    }
  });

  it('declares only variables env.ts reads and values it accepts; the payment groups cover each method once', () => {
    const shape = EnvSchema.shape as Record<string, unknown>;
    for (const kind of providerKinds) {
      expect(shape, kind.selector).toHaveProperty(kind.selector);
      for (const value of [
        kind.simulator,
        ...kind.real.map((a) => a.value),
        ...(kind.off ? [kind.off.value] : []),
      ])
        expect(EnvSchema.safeParse({ [kind.selector]: value }).success, `${kind.selector}=${value}`).toBe(
          true,
        );
    }
    for (const need of declared(providerKinds)) expect(shape, need.name).toHaveProperty(need.name);
    const grouped = providerKinds.flatMap((k) => k.methods ?? []);
    expect([...grouped].sort()).toEqual([...constants.paymentMethods].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(
      providerKinds
        .find((k) => k.selector === 'PAYMENT_PROVIDER')!
        .methods!.slice()
        .sort(),
    ).toEqual(Object.keys(stripeMethodTypes).sort());
  });

  it("is documented: README's Deploying for real names every variable and switch", () => {
    const readme = readFileSync(path.resolve(serverDir, '../../README.md'), 'utf8');
    const section = /\n### Deploying for real\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    expect(section).not.toBe('');
    for (const kind of providerKinds) {
      expect(section, kind.selector).toContain(`\`${kind.selector}\``);
      if (kind.off)
        expect(section, `${kind.selector}=${kind.off.value}`).toContain(`${kind.selector}=${kind.off.value}`);
    }
    for (const need of declared(providerKinds)) expect(section, need.name).toContain(`\`${need.name}\``);
    expect(section).toContain('`DEMO_MODE=1`');
  });

  it('the server process refuses before it opens anything: one message on stderr, exit 78', async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'numa-failclosed-')), 'data');
    const res = spawnSync(process.execPath, [await bundled('src/server.ts')], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.status).toBe(78);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(`${refusal(loadEnv({ NODE_ENV: 'production', DATA_DIR: dataDir }))}\n`);
    expect(existsSync(dataDir)).toBe(false);
  });
});

const pick = (o: Record<string, string | undefined>, re: RegExp) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => re.test(k)));

/** A built client: the page and the plans page with their config placeholders (the build's own markers). */
const webDist = mkdtempSync(path.join(os.tmpdir(), 'numa-failclosed-web-'));
mkdirSync(path.join(webDist, 'plans'));
writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><meta name="theme-color" content="#000"><title>x</title><!--app-config--></head><body></body></html>',
);
writeFileSync(
  path.join(webDist, 'plans', 'index.html'),
  '<!doctype html><html><head><title>plans</title><!--app-config--></head><body></body></html>',
);
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

/** An app on the suite's database: production unless the environment says otherwise. */
const build = (db: TestDb, env: Record<string, string | undefined>) =>
  buildApp({
    env: testEnv({ WEB_DIST: webDist, VALIDATE_RESPONSES: '1', ...(env as Record<string, string>) }),
    db,
  });

let seq = 0;
/** An account with a session (made directly: production has no /dev routes to read a code from). */
async function user(app: FastifyInstance, db: TestDb) {
  const [{ id }] = (await db.query<{ id: number }>(
    `INSERT INTO accounts (brand, email, tel_code, phone) VALUES ('numa', $1, '1', $2) RETURNING id`,
    [
      `failclosed${process.pid}x${seq}@example.com`,
      `41566${String(process.pid % 100).padStart(2, '0')}${String(seq++).padStart(3, '0')}`,
    ],
  )) as [{ id: number }];
  const token = await db.tx(async (tx) => {
    await credit(tx, id, 5);
    return (await app.deps.sessions.start(tx, id, {})).token;
  });
  const c = client(app);
  c.setToken(token);
  return { id, c };
}

/** The page's config script and whether its CSP allows exactly it. */
async function pageConfig(app: FastifyInstance, url: string) {
  const res = await app.inject({ url, headers: { accept: 'text/html', host: 'localhost' } });
  expect(res.statusCode, url).toBe(200);
  const script = /<script>(window\.__NUMA__=[^<]*)<\/script>/.exec(res.body)?.[1];
  expect(script, url).toBeTruthy();
  const hash = createHash('sha256').update(script!).digest('base64');
  expect(String(res.headers['content-security-policy'])).toContain(`'sha256-${hash}'`);
  return JSON.parse(script!.replace(/^window\.__NUMA__=/, '').replace(/;$/, '')) as Record<string, unknown>;
}

describe(`a production app (${testDbKind})`, () => {
  let db: TestDb;
  let stripe: FastifyInstance;
  beforeAll(async () => {
    db = await openTestDb();
    stripe = await build(db, stripeOnly);
  });
  afterAll(async () => {
    await stripe?.close();
    await db?.drop();
  });

  const orders = async (accountId: number) =>
    Number(
      (
        await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_orders WHERE account_id = $1`, [
          accountId,
        ])
      )[0]!.n,
    );

  it("with Stripe only: offers Stripe's methods alone; the others answer 200044 and store nothing", async () => {
    expect(refusal(stripe.deps.env)).toBeNull();
    expect(stripe.deps.carrier.name).toBe('twilio');
    const { id, c } = await user(stripe, db);
    const methods = (await c.get('/web/getPaymentMethods')).body.data;
    const offered = constants.paymentMethods.filter((m) => methods[m]);
    expect(offered.sort()).toEqual(Object.keys(stripeMethodTypes).sort());
    for (const m of ['paypal', 'cryptoPay', 'usdtPay', 'ethPay'] as const) {
      expect(methods[m], m).toBe(false);
      expect(methods.needSetPhone[m], m).toBe(false);
    }
    for (const [url, body] of [
      ['/web/paypal/paySubmit', { productid: 'paypal_web_usd_20' }],
      ['/web/cryptoCurrency/paySubmit', { productid: 'cryptopay_web_usd_20' }],
      ['/web/etherPay/paySubmit', { productid: 'crypto_web_usd_20', currency: 'USDT', network: 'TRC-20' }],
      ['/web/etherPay/paySubmit', { productid: 'crypto_web_usd_20', currency: 'ETH' }],
    ] as const) {
      const res = await c.post(url, body);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({
        retcode: 200044,
        retmsg: 'This payment method is not available.',
      });
    }
    expect(await orders(id)).toBe(0);
  });

  it('with PayPal only: paySubmit for a card method answers 200044 in the caller’s language and stores nothing', async () => {
    const paypal = await build(db, {
      ...stripeOnly,
      PAYMENT_PROVIDER: undefined,
      STRIPE_SECRET_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
      PAYMENT_PAYPAL: 'paypal',
      PAYPAL_ENVIRONMENT: 'live',
      PAYPAL_CLIENT_ID: 'paypal-client-id',
      PAYPAL_CLIENT_SECRET: 'paypal-client-secret',
      PAYPAL_WEBHOOK_ID: 'WH0123456789',
    });
    try {
      expect(refusal(paypal.deps.env)).toBeNull();
      const { id, c } = await user(paypal, db);
      const methods = (await c.get('/web/getPaymentMethods')).body.data;
      expect(constants.paymentMethods.filter((m) => methods[m])).toEqual(['paypal']);
      for (const payment_method of ['creditCard', 'wechatpay', 'unionpay'])
        expect(
          (
            await c.post('/web/paySubmit', {
              payment_method,
              productid: `${payment_method === 'creditCard' ? 'card' : payment_method}_web_usd_10`,
            })
          ).body.retcode,
        ).toBe(200044);
      const zh = await paypal.inject({
        method: 'POST',
        url: '/web/alipay/paySubmit?languagecode=zh_cn',
        headers: { host: 'localhost', 'auth-token': c.token! },
        payload: { platform: 'numa', productid: 'alipay_web_usd_10' },
      });
      expect(zh.statusCode).toBe(400);
      expect(zh.json()).toMatchObject({ retcode: 200044, retmsg: retmsg(200044, 'zh') });
      expect(await orders(id)).toBe(0);
    } finally {
      await paypal.close();
    }
  });

  it('has no sandbox route: its page, its actions and its webhook get the 404 envelope, even asked for HTML', async () => {
    for (const [method, url, accept] of [
      ['GET', '/pay/sandbox/sbx_0123456789abcdef01234567', 'text/html'],
      ['GET', '/pay/sandbox/sbx_0123456789abcdef01234567', '*/*'],
      ['POST', '/pay/sandbox/sbx_0123456789abcdef01234567', 'text/html'],
      ['POST', '/pay/sandbox/sbx_0123456789abcdef01234567/pay', 'text/html'],
      ['POST', '/pay/notify/sandbox', '*/*'],
    ] as const) {
      const res = await stripe.inject({
        method,
        url,
        headers: { host: 'localhost', accept, 'content-type': 'application/json' },
        ...(method === 'POST' ? { payload: '{}' } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toMatchObject({ retcode: 100002 });
    }
  });

  it('mail switched off: no code to an e-mail address (100031, before any captcha, nothing stored); phones still go on', async () => {
    const email = `nomail${process.pid}@example.com`;
    const c = client(stripe);
    const res = await c.post('/web/preLogin', { email });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ retcode: 100031, retmsg: retmsg(100031, 'en') });
    expect(retmsg(100031, 'zh')).toMatch(/手机号码/);
    expect((await db.query(`SELECT 1 FROM signin_codes WHERE address = $1`, [email])).length).toBe(0);
    expect((await db.query(`SELECT 1 FROM rate_events WHERE key LIKE $1`, [`%${email}`])).length).toBe(0);
    const { c: signedIn } = await user(stripe, db);
    expect((await signedIn.post('/web/requestToVerifyEmail', { email })).body.retcode).toBe(100031);
    // a phone gets the captcha (the code would go through the carrier)
    expect((await c.post('/web/preLogin', { telCode: '1', phone: '4155550123' })).body.retcode).toBe(100010);
  });

  it('number supply and code supplier switched off, no speech-to-text: no simulated number is ever offered', async () => {
    const { c } = await user(stripe, db);
    expect(stripe.deps.numberSupply.name).toBe('none');
    expect(stripe.deps.stt.name).toBe('none');
    expect(
      (
        await c.get('/web/getVirtualPhoneByAreaCode', {
          code: 'US',
          type: 'local',
          telCode: '1',
          areaCode: '415',
        })
      ).body,
    ).toMatchObject({ retcode: 0, data: { numbers: [] } });
    // the simulator's pool (migration 025) is not offered: only our own carrier numbers would be
    expect(
      (await c.get('/web/getVerificationCodePhoneListV2', { app: 'whatsapp', code: 'US' })).body,
    ).toMatchObject({
      retcode: 0,
      data: { numbers: [] },
    });
    expect(
      (await c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US' })).body.retcode,
    ).toBe(500000);
  });

  it('tells no page it is a demo', async () => {
    expect((await pageConfig(stripe, '/')).demo).toBeUndefined();
    expect((await pageConfig(stripe, '/plans/')).demo).toBeUndefined();
  });

  it('DEMO_MODE=1: starts on the simulators with the sandbox mounted, and every page is told it is a demo', async () => {
    const env = { NODE_ENV: 'production', DEMO_MODE: '1' };
    expect(refusal(loadEnv(env))).toBeNull();
    const demo = await build(db, env);
    try {
      expect(demo.deps.carrier.name).toBe('simulator');
      expect(demo.deps.mail.name).toBe('simulator');
      expect(demo.deps.numberSupply.name).toBe('simulator');
      expect(demo.deps.payments.provider?.name).toBe('sandbox');
      expect(demo.deps.dev).toBe(false);
      const config = await pageConfig(demo, '/');
      expect(config).toMatchObject({ brand: 'numa', dev: false, demo: true });
      expect((await pageConfig(demo, '/plans/')).demo).toBe(true);
      const { c } = await user(demo, db);
      const methods = (await c.get('/web/getPaymentMethods')).body.data;
      expect(constants.paymentMethods.filter((m) => methods[m]).sort()).toEqual(
        [...constants.paymentMethods].sort(),
      );
      const sub = (await c.post('/web/paypal/paySubmit', { productid: 'paypal_web_usd_20' })).body;
      expect(sub.retcode).toBe(0);
      const page = await demo.inject({
        url: `/pay/sandbox/${sub.data.transactionId}`,
        headers: { host: 'localhost' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Pay');
      // still no /dev route: a demo is a production start
      expect((await demo.inject({ url: '/dev/outbox?to=a@b.co' })).statusCode).toBe(404);
    } finally {
      await demo.close();
    }
  });
});
