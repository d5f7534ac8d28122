import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, fromMinor, socketEvents, type CodeSmsEvent } from '@numa/contract';
import { buildApp } from '../src/app';
import { runAdmin } from '../src/cli/admin';
import { brandFlag, type OpenContext } from '../src/cli/context';
import { ManualClock } from '../src/lib/clock';
import { detectApp, extractCode } from '../src/services/codes/parse';
import { simulatedCodeSms } from '../src/providers/codes/simulator';
import { SmsActivateSupply } from '../src/providers/codes/smsActivate';
import { client, testDbKind, testEnv } from './helpers';
import { connect, credit, startChatApp, until, type ListeningApp } from './chat-support';

/** Real-format code SMS: [text, code, app]. */
const samples: [string, string, string | null][] = [
  ["<#> Your WhatsApp code: 123-456\nDon't share this code with others\n4sgLq1p5sV6", '123456', 'whatsapp'],
  ['<#> 您的 WhatsApp 代码：482-913\n请勿与他人分享此代码', '482913', 'whatsapp'],
  [
    'WhatsApp code 555-123. You can also tap on this link to verify your phone: v.whatsapp.com/555123',
    '555123',
    'whatsapp',
  ],
  [
    'Telegram code: 73921\n\nYou can also tap on this link to log in:\nhttps://t.me/login/73921',
    '73921',
    'telegram',
  ],
  ['Telegram 验证码：40512\n\n您也可以点击此链接登录', '40512', 'telegram'],
  ['G-123456 is your Google verification code.', '123456', 'google'],
  ['G-482913 是您的 Google 验证码。', '482913', 'google'],
  ['【腾讯科技】验证码：654321，用于微信登录，5分钟内有效。如非本人操作，请忽略本短信。', '654321', 'wechat'],
  ['[WeChat] Your verification code is 112233. Do not share it with others.', '112233', 'wechat'],
  ['12345678 is your Facebook code', '12345678', 'facebook'],
  ['FB-34567 is your Facebook confirmation code', '34567', 'facebook'],
  ["123 456 is your Instagram code. Don't share it.", '123456', 'instagram'],
  [
    '[TikTok] 4821 is your verification code, valid for 5 minutes. To keep your account safe, never forward this code.',
    '4821',
    'tiktok',
  ],
  [
    '【抖音】验证码703152，用于手机登录，5分钟内有效。验证码提供给他人可能导致账号被盗，请勿泄露，谨防被骗。',
    '703152',
    'tiktok',
  ],
  ['Your OpenAI verification code is: 902114', '902114', 'openai'],
  ['Your ChatGPT code is 118822', '118822', 'openai'],
  ['Your X verification code is 456789.', '456789', 'twitter'],
  ['Use 1234567 as Microsoft account security code', '1234567', 'microsoft'],
  ["Your Apple ID Code is: 246810. Don't share it with anyone.", '246810', 'apple'],
  ['你的 Apple ID 验证码为：135790。请勿与他人共享。', '135790', 'apple'],
  ['123456 is your Amazon OTP. Do not share it with anyone.', '123456', 'amazon'],
  [
    "PayPal: Your security code is: 908172. Your code expires in 10 minutes. Please don't reply.",
    '908172',
    'paypal',
  ],
  ['Your Discord verification code is: 771234', '771234', 'discord'],
  ['Your Steam verification code is: 7KBQ2', '7KBQ2', 'steam'],
  ['[Alibaba] Your verification code is 556677, valid for 15 minutes.', '556677', 'alibaba'],
  ['【阿里巴巴】您的验证码是889900，15分钟内有效，请勿泄露。', '889900', 'alibaba'],
  ['【淘宝】您的验证码是 3344，5分钟内有效。', '3344', 'alibaba'],
  [
    'Your Uber code: 4455. Never share this code. Reply STOP ALL to +1 415-237-0403 to unsubscribe.',
    '4455',
    'uber',
  ],
  ['Snapchat code: 332211. Happy Snapping!', '332211', 'snapchat'],
  ['Your LinkedIn verification code is 667788.', '667788', 'linkedin'],
  ['Your Tinder code is 5521', '5521', 'tinder'],
  ['[Netflix] Your verification code is 8821. It expires in 15 minutes.', '8821', 'netflix'],
  ['您的验证码为 ８７６５４３，请在10分钟内完成验证。', '876543', null],
  ['验证码：2468（10分钟内有效），请勿告诉他人。', '2468', null],
  ['【京东】验证码：382910，您正在登录京东账号，切勿告知他人。', '382910', null],
  ['【美团】您的验证码是 5721，请在 2 分钟内填写。如非本人操作请忽略。', '5721', null],
  ['【支付宝】校验码 839201，你正在使用支付宝进行身份验证，需要你在 10 分钟内完成。', '839201', 'alibaba'],
  ['【微信支付】您的验证码为 661245，有效期5分钟。', '661245', 'wechat'],
  ['Code de vérification : 112244', '112244', null],
  ['Your verification code is 3141 - valid for 10 minutes', '3141', null],
];

const fee = (app: string, country: string) => {
  const known: Record<string, number> = { 'US:whatsapp': 0.25, 'US:telegram': 0.2, 'US:google': 0.15 };
  return known[`${country}:${app}`] ?? 0.1;
};

let t: ListeningApp;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 4, 0, 0));
let seq = 0;

/** An account of the brand with a session (made directly: fifty sign-ins would cost the suite seconds) and a balance. */
async function user(balance: number, brand = 'numa') {
  const email = `codes${process.pid}x${seq++}@example.com`;
  const [{ id }] = (await t.db.query<{ id: number }>(
    `INSERT INTO accounts (brand, email) VALUES ($1, $2) RETURNING id`,
    [brand, email],
  )) as [{ id: number }];
  const token = await t.db.tx(async (tx) => {
    if (balance) await credit(tx, id, balance);
    return (await t.app.deps.sessions.start(tx, id, {})).token;
  });
  const c = client(t.app, brand === 'numa' ? 'localhost' : `${brand}.localhost`);
  c.setToken(token);
  return { id, c, token };
}

async function balanceOf(id: number) {
  const [row] = await t.db.query<{ balance: number; bills: number }>(
    `SELECT a.balance::float8 AS balance, COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = a.id), 0)::float8 AS bills
       FROM accounts a WHERE a.id = $1`,
    [id],
  );
  expect(row!.bills).toBe(row!.balance); // the ledger invariant: sum of bills = balance
  return fromMinor(row!.balance as never);
}

beforeAll(async () => {
  t = await startChatApp({ clock, jobs: { pollMs: 60_000 } });
});
afterAll(async () => {
  await t?.close();
});

describe(`verification codes (${testDbKind})`, () => {
  it('reads the code and the app of real-format SMS in English and Chinese', () => {
    for (const [text, code, app] of samples) {
      expect(extractCode(text), text).toBe(code);
      if (app) expect(detectApp(text), text).toBe(app);
    }
    expect(samples.length).toBeGreaterThanOrEqual(30);
    // every simulated app writes a code the parser reads back
    for (const app of [
      'whatsapp',
      'telegram',
      'google',
      'wechat',
      'facebook',
      'instagram',
      'tiktok',
      'openai',
      'microsoft',
      'apple',
      'steam',
      'alibaba',
      'line',
    ])
      for (const lang of ['en', 'zh'] as const) {
        const sms = simulatedCodeSms(app, app, lang);
        expect(extractCode(sms.text), sms.text).toMatch(/^[A-Z0-9]{4,8}$/);
      }
  });

  it('locks a number, charges only when the app’s code arrives (live over the socket), once per SMS, and frees it on expiry', async () => {
    const a = await user(1);
    const b = await user(1);
    const list = await a.c.get('/web/getVerificationCodePhoneListV2', { app: 'whatsapp', code: 'US' });
    expect(list.body.retcode).toBe(0);
    expect(list.body.data.numbers.length).toBeGreaterThan(5);
    const feeRes = await a.c.get('/web/getCodeNumberFeeByAppV2', { app: 'whatsapp', code: 'US' });
    expect(feeRes.body.data.fee).toBe(0.25);

    const socket = await connect(t.url, a.token);
    const pushed: CodeSmsEvent[] = [];
    socket.on(socketEvents.codeSms, (e) => pushed.push(e));

    const locked = await a.c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US' });
    expect(locked.body.retcode).toBe(0);
    const number = locked.body.data.phone as string;
    expect(locked.body.data).toMatchObject({
      app: 'whatsapp',
      codeRate: 0.25,
      telCode: '1',
      expireTime: clock.now() + constants.codes.lockMs,
    });
    // B never gets A's number, never reads A's codes
    const bList = await b.c.get('/web/getVerificationCodePhoneListV2', { app: 'whatsapp', code: 'US' });
    expect(bList.body.data.numbers.map((n: { phone: string }) => n.phone)).not.toContain(number);
    const bLock = await b.c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US', number });
    expect([bLock.status, bLock.body.retcode]).toEqual([400, 500000]);
    const bPoll = await b.c.get('/web/getVerificationCodeSmsList', { app: 'whatsapp', number, count: 170 });
    expect(bPoll.body.retcode).toBe(100003);

    // nothing yet: nothing charged
    let poll = await a.c.get('/web/getVerificationCodeSmsList', { app: 'whatsapp', number, count: 179 });
    expect(poll.body.data.smsList).toEqual([]);
    expect(await balanceOf(a.id)).toBe(1);

    // the simulated app sends 3 s after the lock
    clock.advance(3_000);
    await t.app.deps.jobs.drain();
    poll = await a.c.get('/web/getVerificationCodeSmsList', { app: 'whatsapp', number, count: 178 });
    expect(poll.body.data.smsList).toHaveLength(1);
    const sms = poll.body.data.smsList[0];
    expect(sms.text).toContain('WhatsApp code');
    expect(sms.code).toMatch(/^\d{6}$/);
    expect(sms.charge).toBe(0.25);
    expect(await balanceOf(a.id)).toBe(0.75);
    await until(async () => pushed.length === 1);
    expect(pushed[0]).toMatchObject({ app: 'whatsapp', number, sms: { smsId: sms.smsId, code: sms.code } });
    socket.close();

    // the same SMS delivered again (the job retried, the supplier repeated): charged once
    const again = await t.app.deps.codes.receive({
      source: 'simulator',
      messageId: `lock-${await lockId(a.id, number)}`,
      phone: number,
      app: 'whatsapp',
      text: 'again',
    });
    expect(again.status).toBe('duplicate');
    // one SMS from the carrier delivered twice at once, and two different codes at once: two charges
    const dev = (messageId: string, text: string) =>
      t.app.deps.codes.receive({ source: 'carrier', messageId, phone: number, text });
    const results = await Promise.all([
      dev('m1', '<#> Your WhatsApp code: 111-222'),
      dev('m1', '<#> Your WhatsApp code: 111-222'),
      dev('m2', '<#> Your WhatsApp code: 333-444'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['charged', 'charged', 'duplicate']);
    expect(await balanceOf(a.id)).toBe(0.25);
    // B's locks and polls never show A's codes
    expect(await balanceOf(b.id)).toBe(1);

    // the window ends: the expiry job frees the number; a lock with no code costs nothing
    const c2 = await a.c.get('/web/lockVerificationCodePhone', { app: 'telegram', code: 'US' });
    expect(c2.body.retcode).toBe(0);
    clock.advance(3_000);
    await t.app.deps.jobs.drain(); // the simulated Telegram code
    expect(await balanceOf(a.id)).toBe(0.05);
    clock.advance(constants.codes.lockMs);
    await t.app.deps.jobs.drain();
    const ended = await t.db.query(`SELECT end_reason FROM code_locks WHERE account_id = $1 ORDER BY id`, [
      a.id,
    ]);
    expect(ended.map((r: { end_reason: string }) => r.end_reason)).toEqual(['expired', 'expired']);
    // a code for a lock that ended is not charged
    expect((await dev('m3', '<#> Your WhatsApp code: 555-666')).status).toBe('unmatched');
    // the number stays A's for a month: B still cannot take it, A gets it back first in the list
    const bAgain = await b.c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US', number });
    expect(bAgain.body.retcode).toBe(500000);
    const mine = await a.c.get('/web/getVerificationCodePhoneListV2', { app: 'whatsapp', code: 'US' });
    expect(mine.body.data.numbers[0]).toMatchObject({ phone: number, canGetNumber: true });
    // A's balance no longer covers a WhatsApp code: 400001 before any lock
    const poor = await a.c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US', number });
    expect(poor.body.retcode).toBe(400001);
  });

  it('gives one holder to 50 concurrent locks of one number, never charges a lock without a code, and replaces a lock', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => user(1)));
    const number = '12065550101';
    const tries = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        users[i % 10]!.c.get('/web/lockVerificationCodePhone', { app: 'google', code: 'US', number }),
      ),
    );
    const won = tries.filter((r) => r.body.retcode === 0);
    const holders = new Set(won.map((r, i) => r.body.data.phone + i));
    expect(holders.size).toBeGreaterThan(0);
    const rows = await t.db.query(
      `SELECT account_id FROM code_locks WHERE phone = $1 AND app = 'google' AND ended_at IS NULL`,
      [number],
    );
    expect(rows).toHaveLength(1);
    for (const r of tries)
      expect(r.body.retcode === 0 || r.body.retcode === 500000, JSON.stringify(r.body)).toBe(true);
    const holder = users.find((u) => u.id === Number(rows[0]!.account_id))!;
    // try another number: the first lock is given back, no charge for either
    const other = await holder.c.get('/web/lockVerificationCodePhone', {
      app: 'google',
      code: 'US',
      lastApp: 'google',
      lastNumber: number,
    });
    expect(other.body.retcode).toBe(0);
    expect(other.body.data.phone).not.toBe(number);
    const free = await users[0]!.c.get('/web/getVerificationCodePhoneListAnonymous', {
      app: 'google',
      code: 'US',
    });
    expect(free.body.data.numbers.map((n: { phone: string }) => n.phone)).toContain(number);
    // the poll's end (count 0) gives the lock back too
    const polled = await holder.c.get('/web/getVerificationCodeSmsList', {
      app: 'google',
      number: other.body.data.phone,
      count: 0,
    });
    expect(polled.body.data.smsList).toEqual([]);
    await t.app.deps.jobs.drain();
    for (const u of users) expect(await balanceOf(u.id)).toBe(1);
    // bad input is an envelope error, not a lock
    const bad = await users[1]!.c.get('/web/lockVerificationCodePhone', { app: 'nope!', code: 'US' });
    expect([bad.status, bad.body.retcode]).toEqual([400, 100001]);
    const unknownApp = await users[1]!.c.get('/web/lockVerificationCodePhone', {
      app: 'notanapp',
      code: 'US',
    });
    expect(unknownApp.body.retcode).toBe(100001);
    expect(fee('google', 'US')).toBe(0.15);
  });
  it('keeps a number: subscribe with its bill, renew once across two servers, lapse when the balance is short, restore; history and SMS pages', async () => {
    const a = await user(3);
    const b = await user(1);
    await t.db.query(
      `INSERT INTO billing_profiles (account_id, first_name, last_name, address, city, province, postal_code, country, status) VALUES ($1, 'A', 'B', '1 St', 'C', 'P', '1', 'US', 2)`,
      [a.id],
    );
    const locked = await a.c.get('/web/lockVerificationCodePhone', { app: 'openai', code: 'GB' });
    const number = locked.body.data.phone as string;
    expect(locked.body.data).toMatchObject({ canSub: 1, subRent: 2 });
    // not a number of B's; and A's only after its first code
    expect((await a.c.get('/web/subVerificationCodePhone', { app: 'openai', number })).body.retcode).toBe(
      300033,
    );
    clock.advance(3_000);
    await t.app.deps.jobs.drain();
    expect(await balanceOf(a.id)).toBe(2.9);
    expect((await b.c.get('/web/subVerificationCodePhone', { app: 'openai', number })).body.retcode).toBe(
      100023,
    );
    const apps = await a.c.get('/web/getAppListByAccount');
    expect(apps.body.data.appList.map((x: { app: string }) => x.app)).toEqual(['openai']);
    const mine = await a.c.get('/web/getCodeNumberListByAccount', { app: 'openai' });
    expect(mine.body.data.numbers).toMatchObject([
      { phone: number, subStatus: 0, code: 'GB', codeRate: 0.1, subRent: 2 },
    ]);
    const ym = new Date(clock.now()).toISOString().slice(0, 7);
    const sms = await a.c.get('/web/getCodeSmsList', { app: 'openai', number, ym, pageSize: 20 });
    expect(sms.body.data.smsList).toHaveLength(1);
    expect(sms.body.data.nextPage).toBeNull();

    const sub = await a.c.get('/web/subVerificationCodePhone', { app: 'openai', number });
    expect(sub.body.retcode).toBe(0);
    expect(await balanceOf(a.id)).toBe(0.9);
    const history = await a.c.get('/web/getSubCodeNumberList', { ym, pageSize: 200 });
    expect(history.body.data.list).toMatchObject([
      {
        type: 1,
        charge: -2,
        number: `+${number}`,
        name: 'OpenAI',
        resDate: '',
        nextPaymentDate: expect.any(String),
      },
    ]);
    expect(history.body.data.nextPage).toBeNull();
    // the app is named in the request's language
    await t.db.query(`UPDATE code_apps SET name_zh = 'OpenAI 中文' WHERE app = 'openai'`);
    try {
      const zh = await a.c.get('/web/getSubCodeNumberList', { ym, pageSize: 200, languagecode: 'zh_cn' });
      expect(zh.body.data.list[0].name).toBe('OpenAI 中文');
    } finally {
      await t.db.query(`UPDATE code_apps SET name_zh = 'OpenAI' WHERE app = 'openai'`);
    }

    // a month on: two servers drain the renewal at once; one charge. The balance (0.9) is short: it lapses.
    const second = await buildApp({ env: testEnv(), db: t.db, clock, jobs: { pollMs: 60_000 } });
    await second.ready();
    try {
      await t.db.tx(async (tx) => credit(tx, a.id, 1.5));
      const due = (
        await t.db.query<{ valid_until: Date }>(
          `SELECT valid_until FROM rentals WHERE phone = $1 AND app = 'openai'`,
          [number],
        )
      )[0]!.valid_until;
      clock.set(new Date(due).getTime());
      await Promise.all([t.app.deps.jobs.drain(), second.deps.jobs.drain()]);
      expect(await balanceOf(a.id)).toBe(0.4);
      const rents = await t.db.query(
        `SELECT count(*)::int AS n FROM ledger WHERE account_id = $1 AND type = 5`,
        [a.id],
      );
      expect(rents[0].n).toBe(2);
      // the next month finds 0.4: the number lapses, and can be restored from its history entry
      const due2 = (
        await t.db.query<{ valid_until: Date }>(
          `SELECT valid_until FROM rentals WHERE phone = $1 AND app = 'openai'`,
          [number],
        )
      )[0]!.valid_until;
      clock.set(new Date(due2).getTime());
      await Promise.all([t.app.deps.jobs.drain(), second.deps.jobs.drain()]);
      expect(await balanceOf(a.id)).toBe(0.4);
      const ym2 = new Date(clock.now()).toISOString().slice(0, 7);
      // two months on, the hourly purge (on the moved clock) ended the test sessions: sign A in again
      a.c.setToken(await t.db.tx(async (tx) => (await t.app.deps.sessions.start(tx, a.id, {})).token));
      const lapsedRes = await a.c.get('/web/getSubCodeNumberList', { ym: ym2, pageSize: 200 });
      expect(lapsedRes.body.retcode, JSON.stringify(lapsedRes.body)).toBe(0);
      const lapsed = lapsedRes.body.data.list[0];
      expect(lapsed).toMatchObject({ type: 100, charge: 0 });
      await t.db.tx(async (tx) => credit(tx, a.id, 2));
      const re = await a.c.post('/web/reSubVerificationCodePhone', {
        historyId: lapsed.historyId,
        date: lapsed.date,
      });
      expect(re.body.retcode).toBe(0);
      expect(await balanceOf(a.id)).toBe(0.4);
      expect((await a.c.get('/web/unSubVerificationCodePhone', { app: 'openai', number })).body.retcode).toBe(
        0,
      );
      b.c.setToken(await t.db.tx(async (tx) => (await t.app.deps.sessions.start(tx, b.id, {})).token));
      expect((await b.c.get('/web/unSubVerificationCodePhone', { app: 'openai', number })).body.retcode).toBe(
        100003,
      );
    } finally {
      await second.close();
    }
  });
  it('lets an operator list locks and codes, add pool numbers, set fees and refund a code once', async () => {
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
    expect((await admin('codes', 'pool-add', '+61491570199', '--apps', 'signal')).out).toContain(
      'added 1 of 1',
    );
    expect((await admin('codes', 'pool-add', 'nonsense')).code).not.toBe(0);
    expect((await admin('codes', 'fee', 'signal', 'AU', '0.33', '--brand', 'jiema')).code).toBe(0);
    const a = await user(1, 'jiema');
    const locked = await a.c.get('/web/lockVerificationCodePhone', {
      app: 'signal',
      code: 'AU',
      number: '61491570199',
    });
    expect(locked.body.data).toMatchObject({ phone: '61491570199', codeRate: 0.33 });
    clock.advance(3_000);
    await t.app.deps.jobs.drain();
    expect(await balanceOf(a.id)).toBe(0.67);
    expect((await admin('codes', 'locks', '--brand', 'jiema')).out).toContain('+61491570199 signal AU');
    const listed = (await admin('codes', 'list', '--brand', 'jiema')).out;
    const smsId = listed.split(' ')[0]!;
    expect(listed).toContain('charge 0.33');
    expect((await admin('codes', 'refund', smsId)).out).toContain('refunded: balance 0.67 → 1');
    expect((await admin('codes', 'refund', smsId)).out).toContain('already refunded');
    expect(await balanceOf(a.id)).toBe(1);
  });

  it('takes code SMS on our own numbers from the carrier (a repeated webhook charges once) and sends from a verification number as a charged SMS', async () => {
    const a = await user(1);
    const b = await user(1);
    const locked = await a.c.get('/web/lockVerificationCodePhone', { app: 'google', code: 'GB' });
    const number = locked.body.data.phone as string;
    expect(locked.body.data.canSendCodeSms).toBe(true);
    // the carrier brings the SMS; its webhook is repeated (twice at once, once later): one code, one charge
    const inbound = () =>
      t.app.deps.chats.sink.inbound({
        carrierId: 'SM0123456789abcdef',
        from: 'Google',
        to: `+${number}`,
        text: 'G-482913 is your Google verification code.',
        media: [],
      });
    const got = await Promise.all([inbound(), inbound()]);
    expect(got).toEqual([{ delivered: true }, { delivered: true }]);
    expect(await inbound()).toEqual({ delivered: true });
    const poll = await a.c.get('/web/getVerificationCodeSmsList', { app: 'google', number, count: 170 });
    expect(poll.body.data.smsList).toMatchObject([{ code: '482913', charge: 0.1 }]);
    expect(await balanceOf(a.id)).toBe(0.9);
    // a pool number nobody has locked: the carrier's SMS is dropped, nobody pays (two numbers that
    // take only the biggest apps, so the lock above or the openai one cannot hold both)
    const idle = ['447700900115', '447700900110'].find((n) => n !== number)!;
    expect(
      await t.app.deps.chats.sink.inbound({
        carrierId: 'SMffff',
        from: 'Google',
        to: `+${idle}`,
        text: 'G-111111 is your Google verification code.',
        media: [],
      }),
    ).toEqual({ delivered: false });

    // a reply from the number: charged as an SMS to the destination, with its bill (type 2)
    const sent = await a.c.post('/web/sendCodeSms', {
      from: number,
      to: '+14155550134',
      app: 'google',
      text: 'Hello from my verification number',
    });
    expect(sent.body.retcode, JSON.stringify(sent.body)).toBe(0);
    expect(sent.body.data.smsId).toMatch(/^code-out:/);
    await t.app.deps.jobs.drain();
    expect(await balanceOf(a.id)).toBe(0.892);
    const bills = await t.db.query<{ type: number; charge: number }>(
      `SELECT type, charge::float8 AS charge FROM ledger WHERE account_id = $1 ORDER BY id`,
      [a.id],
    );
    expect(bills.slice(-2).map((r) => r.type)).toEqual([6, 2]);
    // the carrier refuses the destination for good: the charge comes back (bill type 8), once
    const refused = await a.c.post('/web/sendCodeSms', {
      from: number,
      to: '+61400000000',
      app: 'google',
      text: 'to nowhere',
    });
    expect(refused.body.retcode).toBe(0);
    await t.app.deps.jobs.drain();
    expect(await balanceOf(a.id)).toBe(0.892);
    // not B's number; bad input is an envelope error
    const other = await b.c.post('/web/sendCodeSms', {
      from: number,
      to: '+14155550134',
      app: 'google',
      text: 'x',
    });
    expect([other.status, other.body.retcode]).toEqual([403, 100003]);
    const empty = await a.c.post('/web/sendCodeSms', {
      from: number,
      to: '+14155550134',
      app: 'google',
      text: ' ',
    });
    expect([empty.status, empty.body.retcode]).toEqual([400, 100001]);
    expect(await balanceOf(b.id)).toBe(1);
  });

  it('speaks the SMS-Activate protocol to a real supplier: activation, polling through the jobs queue, one charge per code, cancel on expiry', async () => {
    // a local stand-in for the supplier's handler_api.php, answering as its public documentation shows
    const calls: string[] = [];
    let numberAnswer = 'ACCESS_NUMBER:7012345:12065550188';
    let status = 'STATUS_WAIT_CODE';
    const fake: Server = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      const action = q.get('action')!;
      calls.push(
        [action, q.get('service'), q.get('country'), q.get('id'), q.get('status')].filter(Boolean).join(' '),
      );
      const answer = (() => {
        if (q.get('api_key') !== 'fake-key-123') return 'BAD_KEY';
        switch (action) {
          case 'getNumber':
            return numberAnswer;
          case 'getStatus':
            return status;
          case 'getFullSms':
            return status.startsWith('STATUS_OK')
              ? "FULL_SMS:<#> Your WhatsApp code: 123-456\nDon't share this code with others"
              : 'STATUS_WAIT_CODE';
          case 'setStatus':
            return {
              '1': 'ACCESS_READY',
              '3': 'ACCESS_RETRY_GET',
              '6': 'ACCESS_ACTIVATION',
              '8': 'ACCESS_CANCEL',
            }[q.get('status')!]!;
          case 'getPrices':
            return JSON.stringify({ '187': { wa: { cost: 0.5, count: 42 } } });
          default:
            return 'BAD_ACTION';
        }
      })();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/stubs/handler_api.php`;
    const supply = new SmsActivateSupply({
      url,
      apiKey: 'fake-key-123',
      pollEveryMs: 5000,
      priceRates: { usd: '100' },
    });
    const real = await buildApp({
      env: testEnv(),
      db: t.db,
      clock,
      jobs: { pollMs: 60_000 },
      codeSupply: supply,
    });
    await real.ready();
    try {
      expect(await supply.prices({ app: 'whatsapp', country: 'US' })).toEqual({ cost: 0.5, count: 42 });
      expect(await real.deps.codesOperator.supplierPrices('whatsapp', 'US')).toEqual([
        { supplier: 'smsactivate', prices: { cost: 0.5, count: 42 } },
      ]);
      expect(await real.deps.codesOperator.supplierPrices('telegram', 'US')).toEqual([
        { supplier: 'smsactivate', prices: null },
      ]);
      await expect(
        new SmsActivateSupply({ url, apiKey: 'wrong-key-1', pollEveryMs: 5000 }).acquire({
          app: 'whatsapp',
          country: 'US',
        }),
      ).rejects.toMatchObject({ kind: 'refused', answer: 'BAD_KEY' });

      const a = await user(1);
      const c = client(real, 'localhost');
      c.setToken(a.token);
      const locked = await c.get('/web/lockVerificationCodePhone', { app: 'whatsapp', code: 'US' });
      expect(locked.body.retcode, JSON.stringify(locked.body)).toBe(0);
      expect(locked.body.data).toMatchObject({ phone: '12065550188', canSub: 0, codeRate: 0.25 });
      expect(calls).toContain('getNumber wa 187');
      // nothing yet: a poll through the jobs queue asks, nothing is charged
      clock.advance(5_000);
      await real.deps.jobs.drain();
      expect(calls).toContain('getStatus 7012345');
      expect(await balanceOf(a.id)).toBe(1);
      // the code arrives at the supplier: the next poll stores it with its full text and charges once,
      // however often the supplier repeats it
      status = 'STATUS_OK:123456';
      for (let i = 0; i < 3; i++) {
        clock.advance(5_000);
        await real.deps.jobs.drain();
      }
      const poll = await c.get('/web/getVerificationCodeSmsList', {
        app: 'whatsapp',
        number: '12065550188',
        count: 170,
      });
      expect(poll.body.data.smsList).toMatchObject([{ code: '123456', charge: 0.25 }]);
      expect(poll.body.data.smsList[0].text).toContain('Your WhatsApp code: 123-456');
      expect(await balanceOf(a.id)).toBe(0.75);
      expect(calls).toContain('setStatus 7012345 3');
      // Done: the activation is completed at the supplier
      await c.get('/web/getVerificationCodeSmsList', { app: 'whatsapp', number: '12065550188', count: 0 });
      expect(calls).toContain('setStatus 7012345 6');

      // none free at the supplier: 500000 with HTTP 400
      numberAnswer = 'NO_NUMBERS';
      const none = await c.get('/web/lockVerificationCodePhone', { app: 'telegram', code: 'US' });
      expect([none.status, none.body.retcode]).toEqual([400, 500000]);
      // a lock that expires with no code: cancelled at the supplier, the balance unchanged
      numberAnswer = 'ACCESS_NUMBER:7012399:12065550187';
      status = 'STATUS_WAIT_CODE';
      const quiet = await c.get('/web/lockVerificationCodePhone', { app: 'telegram', code: 'US' });
      expect(quiet.body.data.phone).toBe('12065550187');
      clock.advance(constants.codes.lockMs);
      await real.deps.jobs.drain();
      expect(calls).toContain('setStatus 7012399 8');
      expect(await balanceOf(a.id)).toBe(0.75);
      const ended = await t.db.query(`SELECT end_reason FROM code_locks WHERE supplier_ref = '7012399'`);
      expect(ended).toEqual([{ end_reason: 'expired' }]);
    } finally {
      await real.close();
      await new Promise((r) => fake.close(r));
    }
  });
});

async function lockId(accountId: number, phone: string) {
  const [row] = await t.db.query<{ id: number }>(
    `SELECT id FROM code_locks WHERE account_id = $1 AND phone = $2 ORDER BY id LIMIT 1`,
    [accountId, phone],
  );
  return Number(row!.id);
}
