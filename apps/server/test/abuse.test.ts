import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, normalizePhone, retmsg } from '@numa/contract';
import { migrate, readMigrations } from '../src/db/migrate';
import { phoneFacts } from '../src/lib/sms';
import {
  captchaProof,
  client,
  lastCode,
  newCaptchaId,
  signIn,
  startTestApp,
  testDbKind,
  type TestApp,
} from './helpers';

/**
 * Issue 9, holes 3, 4 and 8: each attack of the issue replayed against the real server, and refused.
 * 3: one phone number, four accounts by splitting it differently. 4: sign-in codes guessed at 25 an
 * hour. 8: invite bonuses farmed (no cap per inviter, one number redeeming from several accounts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

type Client = Awaited<ReturnType<typeof signIn>>;
let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;
let phoneSeq = 0;
/** Distinct well-formed US numbers (area 415, exchange 6xx); the suite has its own database. */
const newPhone = () => `4156${String(phoneSeq++).padStart(6, '0')}`;

/** The dev route that forgets an address's send limits (the 60 s resend wait), as if time passed. */
const liftSendLimits = (to: string) => t.app.inject({ method: 'DELETE', url: `/dev/rate-limits?to=${to}` });
/** The hourly send window moved past, without touching the daily wrong-code count. */
const hourPassed = (addr: string) =>
  t.db.query(
    `UPDATE rate_events SET at = at - interval '2 hours' WHERE key LIKE 'code:%' AND key NOT LIKE 'code:%:wrong:%' AND key LIKE $1`,
    [`%:${addr}`],
  );

async function sendThroughCaptcha(c: Client, nextApi: '/web/getVerifyCode', params: Record<string, unknown>) {
  return c.post('/web/confirmCaptcha', {
    ...(await captchaProof(t.app, newCaptchaId())),
    nextApi,
    ...params,
  });
}

/** Proves a phone for a signed-in account and gives it to the account (`set` or `update`). */
async function takePhone(c: Client, phone: string, mode: 'set' | 'update', telcode = '1') {
  const sent = await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode, phone });
  expect(sent.body.retcode, JSON.stringify(sent.body)).toBe(0);
  const verifyid = sent.body.data.verifyid as string;
  const ok = await c.post('/web/validateCode', {
    verifyid,
    activationcode: await lastCode(t.app, `${telcode}${phone}`),
  });
  expect(ok.body.retcode).toBe(0);
  const res = await c.post(mode === 'set' ? '/web/setPhoneForAccount' : '/web/updatePhone', {
    verifyid,
    telcode,
    phone,
  });
  expect(res.body.retcode, JSON.stringify(res.body)).toBe(0);
}

describe(`hole 3: one phone number, one account (${testDbKind})`, () => {
  it('signs the four splits of +1 212 555 0299 into one account, refuses a second holder, and agrees with the client', async () => {
    const splits = [
      { telCode: '1', phone: '2125550299' },
      { telCode: '12', phone: '125550299' },
      { telCode: '121', phone: '25550299' },
      { telCode: '1212', phone: '5550299' },
    ];
    const seen: unknown[] = [];
    for (const split of splits) {
      await liftSendLimits('12125550299');
      const c = await signIn(t.app, split);
      seen.push((await c.get('/web/getAccountInfo')).body.data);
    }
    const rows = await t.db.query(
      `SELECT id, tel_code, phone FROM accounts WHERE tel_code || phone = '12125550299'`,
    );
    expect(rows).toEqual([{ id: expect.anything(), tel_code: '1', phone: '2125550299' }]);
    for (const info of seen) expect(info).toMatchObject({ telCode: '1', phone: '2125550299' });

    // a trunk 0 typed before a UK mobile is the same number as without it
    await signIn(t.app, { telCode: '44', phone: '7911123456' });
    await liftSendLimits('447911123456');
    const uk = client(t.app);
    const pre = await uk.post('/web/preLogin', {
      telCode: '44',
      phone: '07911123456',
      ...(await captchaProof(t.app, newCaptchaId())),
    });
    expect(pre.body.retcode).toBe(0);
    const login = await uk.post('/web/login', {
      telCode: '44',
      phone: '07911123456',
      code: await lastCode(t.app, '447911123456'),
    });
    expect(login.body.retcode).toBe(0);
    expect(
      await t.db.query(`SELECT tel_code, phone FROM accounts WHERE tel_code || phone LIKE '44%'`),
    ).toEqual([{ tel_code: '44', phone: '7911123456' }]);

    // another account cannot take the number by splitting it differently in the verify calls
    const other = await signIn(t.app, { email: uniqueEmail('other') });
    const taken = await sendThroughCaptcha(other, '/web/getVerifyCode', {
      telcode: '121',
      phone: '25550299',
    });
    expect(taken.body).toMatchObject({ retcode: 100017, data: null });
    expect(taken.status).toBe(400);

    // one metadata set: the number the small set let through fails the client, the sign-in and lib/sms alike
    expect(normalizePhone('86', '12345678901')).toBeNull();
    expect(phoneFacts('8612345678901')).toBeNull();
    const cn = await client(t.app).post('/web/preLogin', {
      telCode: '86',
      phone: '12345678901',
      ...(await captchaProof(t.app, newCaptchaId())),
    });
    expect(cn.body).toMatchObject({ retcode: 100007, retmsg: retmsg(100007, 'en') });
    expect(normalizePhone('+1', '(212) 555-0299')).toEqual({
      e164: '+12125550299',
      telCode: '1',
      phone: '2125550299',
      country: 'US',
    });

    // the database holds the line too: one account per joined number, however split
    await expect(
      t.db.query(`INSERT INTO accounts (brand, tel_code, phone) VALUES ('numa', '12', '125550299')`),
    ).rejects.toThrow(/accounts_brand_phone_full|unique/i);
    // another brand may have its own account for the number
    await t.db.query(
      `INSERT INTO accounts (brand, tel_code, phone) VALUES ('cloudnumber', '12', '125550299')`,
    );
  });

  it('migration 013 resolves existing duplicates: one keeps the number, the others keep everything else and are listed', async () => {
    // the suite's database as it was before migrations 013–014 (their changes undone), on brands of its own
    const db = t.db;
    for (const statement of [
      'DROP INDEX accounts_brand_phone_full',
      'CREATE UNIQUE INDEX accounts_brand_phone ON accounts (brand, tel_code, phone) WHERE phone IS NOT NULL',
      'DROP TABLE phone_conflicts',
      'DROP INDEX invite_redemptions_phone',
      'ALTER TABLE invite_redemptions DROP COLUMN redeemer_phone',
      'DELETE FROM schema_migrations WHERE version IN (13, 14)',
    ])
      await db.query(statement);
    const ins = async (
      brand: string,
      telCode: string,
      phone: string,
      status = 1,
      email: string | null = null,
    ) =>
      (
        await db.query<{ id: number }>(
          `INSERT INTO accounts (brand, tel_code, phone, status, email) VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id`,
          [brand, telCode, phone, status, email],
        )
      )[0]!.id;
    // the attack's four accounts (the first one suspended, so an active one keeps the number), one with money
    const suspended = await ins('mig1', '1', '2125550299', 2);
    const keeper = await ins('mig1', '12', '125550299');
    const third = await ins('mig1', '121', '25550299', 1, 'third@example.com');
    const fourth = await ins('mig1', '1212', '5550299');
    await db.query(
      `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance) VALUES ($1, 9, 50000, 0, 50000)`,
      [fourth],
    );
    // the same number on another brand is another account; a badly split single number is re-split
    const otherBrand = await ins('mig2', '1', '2125550299');
    const uk = await ins('mig1', '4', '47911123456');
    await db.query(
      `INSERT INTO address_verifications (id, account_id, brand, channel, tel_code, phone) VALUES ('v1', $1, 'mig2', 'sms', '4479', '11123456')`,
      [otherBrand],
    );

    await migrate(
      db,
      readMigrations().filter((m) => m.version === 13 || m.version === 14),
    );

    const rows = await db.query(
      `SELECT id::int AS id, tel_code, phone, email, balance::int AS balance FROM accounts WHERE brand LIKE 'mig%' ORDER BY id`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(keeper)).toMatchObject({ tel_code: '1', phone: '2125550299' });
    for (const id of [suspended, third, fourth])
      expect(byId.get(id)).toMatchObject({ tel_code: null, phone: null });
    expect(byId.get(third)).toMatchObject({ email: 'third@example.com' });
    expect(byId.get(fourth)).toMatchObject({ balance: 50000 });
    expect(byId.get(otherBrand)).toMatchObject({ tel_code: '1', phone: '2125550299' });
    expect(byId.get(uk)).toMatchObject({ tel_code: '44', phone: '7911123456' });
    const conflicts = await db.query(
      `SELECT account_id::int AS id, tel_code, phone, kept_by::int AS kept_by FROM phone_conflicts ORDER BY account_id`,
    );
    expect(conflicts).toEqual([
      { id: suspended, tel_code: '1', phone: '2125550299', kept_by: keeper },
      { id: third, tel_code: '121', phone: '25550299', kept_by: keeper },
      { id: fourth, tel_code: '1212', phone: '5550299', kept_by: keeper },
    ]);
    expect(await db.query(`SELECT tel_code, phone FROM address_verifications WHERE brand = 'mig2'`)).toEqual([
      { tel_code: '44', phone: '7911123456' },
    ]);
    await expect(
      db.query(`INSERT INTO accounts (brand, tel_code, phone) VALUES ('mig1', '121', '25550299')`),
    ).rejects.toThrow();
  });
});

describe(`hole 4: sign-in codes cannot be guessed (${testDbKind})`, () => {
  it(`checks at most ${constants.signin.wrongTriesPerAddressPerDay} wrong codes per number a day, then answers "max retries" until the day has passed`, async () => {
    const cap = constants.signin.wrongTriesPerAddressPerDay;
    // the documented figure: a 50 % chance on a 4-digit code takes more than a year at the cap
    expect(Math.log(2) / -Math.log(1 - 1e-4) / cap).toBeGreaterThan(365);

    const phone = newPhone();
    const addr = `1${phone}`;
    const attacker = client(t.app);
    const send = async () => {
      await hourPassed(addr);
      return (
        await attacker.post('/web/preLogin', {
          telCode: '1',
          phone,
          ...(await captchaProof(t.app, newCaptchaId())),
        })
      ).body;
    };
    const guess = async (code: string) =>
      (await attacker.post('/web/login', { telCode: '1', phone, code })).body;
    const wrongFor = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0');

    // the attack: every hour a new code and its 5 tries, for 3 "hours" (15 guesses); only 10 are checked
    const answers: number[] = [];
    for (let hour = 0; hour < 3; hour++) {
      const sent = await send();
      if (sent.retcode !== 0) {
        answers.push(sent.retcode);
        continue;
      }
      const code = await lastCode(t.app, addr);
      for (let i = 0; i < constants.signin.maxWrongTries; i++)
        answers.push((await guess(wrongFor(code))).retcode);
    }
    expect(answers).toEqual([
      100004, 100004, 100004, 100004, 100006, 100004, 100004, 100004, 100004, 100030, 100030,
    ]);
    const wrongEvents = async () =>
      (
        await t.db.query(`SELECT count(*)::int AS n FROM rate_events WHERE key = $1`, [
          `code:numa:wrong:${addr}`,
        ])
      )[0].n;
    expect(await wrongEvents()).toBe(cap);

    // at the cap even the right code is refused, in the user's language, with a 4xx
    const refused = await attacker.post('/web/login', {
      telCode: '1',
      phone,
      code: await lastCode(t.app, addr),
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      retcode: 100030,
      retmsg: 'Too many incorrect codes. Please try again tomorrow.',
      data: null,
    });
    const zh = await t.app.inject({
      method: 'POST',
      url: '/web/login?languagecode=zh_cn',
      headers: { host: 'localhost' },
      payload: { platform: 'numa', telCode: '1', phone, code: '0000' },
    });
    expect(zh.json()).toMatchObject({ retcode: 100030, retmsg: '验证码错误次数过多，请明天再试。' });
    // the verify calls of another account for the same number are under the same cap
    const other = await signIn(t.app, { email: uniqueEmail('verifier') });
    expect((await other.get('/web/getVerifyCode', { telcode: '1', phone })).body.retcode).toBe(100030);
    expect(await wrongEvents()).toBe(cap);

    // a day later the owner signs in again
    await t.db.query(`UPDATE rate_events SET at = at - interval '25 hours' WHERE key = $1`, [
      `code:numa:wrong:${addr}`,
    ]);
    expect((await send()).retcode).toBe(0);
    expect((await guess(await lastCode(t.app, addr))).retcode).toBe(0);
  });

  it('does not overshoot the cap when wrong guesses arrive at once', async () => {
    const cap = constants.signin.wrongTriesPerAddressPerDay;
    const email = uniqueEmail('burst');
    const c = client(t.app);
    const send = async () => {
      await hourPassed(email);
      expect(
        (await c.post('/web/preLogin', { email, ...(await captchaProof(t.app, newCaptchaId())) })).body
          .retcode,
      ).toBe(0);
    };
    // cap - 2 wrong codes already today, then a fresh code and 12 wrong guesses at once
    await t.db.query(`INSERT INTO rate_events (key) SELECT $1 FROM generate_series(1, $2::int)`, [
      `code:numa:wrong:${email}`,
      cap - 2,
    ]);
    await send();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => c.post('/web/login', { email, code: '000000' })),
    );
    const codes = results.map((r) => r.body.retcode).sort();
    expect(codes.filter((x) => x === 100004)).toHaveLength(1);
    expect(codes.filter((x) => x === 100030)).toHaveLength(11);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM rate_events WHERE key = $1`, [
      `code:numa:wrong:${email}`,
    ]);
    expect(n).toBe(cap);
  });
});

describe(`hole 8: invite bonuses cannot be farmed (${testDbKind})`, () => {
  const balanceOf = async (c: Client) => (await c.get('/web/queryBalance')).body.data.balance as number;
  const codeOf = async (c: Client) => (await c.get('/web/getInviteCode')).body.data.inviteCode as string;
  /** Every account's balance equals the sum of its bills. */
  const ledgerHolds = async () =>
    expect(
      await t.db.query(
        `SELECT a.id FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id GROUP BY a.id, a.balance HAVING a.balance <> COALESCE(sum(l.charge), 0)`,
      ),
    ).toEqual([]);

  it(`pays one inviter at most ${constants.inviteBonusesPerInviterPerMonth} bonuses a month, even when friends redeem at once`, async () => {
    const cap = constants.inviteBonusesPerInviterPerMonth;
    const inviter = await signIn(t.app, { telCode: '1', phone: newPhone() });
    const code = await codeOf(inviter);
    // two redemptions from last month do not count against this month
    const [{ id: inviterId }] = await t.db.query(
      `SELECT account_id::int AS id FROM invite_codes WHERE code = $1`,
      [code],
    );
    for (let i = 0; i < 2; i++) {
      const [{ id }] = await t.db.query(
        `INSERT INTO accounts (brand, tel_code, phone) VALUES ('numa', '1', $1) RETURNING id::int AS id`,
        [newPhone()],
      );
      await t.db.query(
        `INSERT INTO invite_redemptions (redeemer_id, inviter_id, brand, code, created_at) VALUES ($1, $2, 'numa', $3, date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 day')`,
        [id, inviterId, code],
      );
    }
    const friends = await Promise.all(
      Array.from({ length: cap + 4 }, () => signIn(t.app, { telCode: '1', phone: newPhone() })),
    );
    const results = await Promise.all(friends.map((f) => f.post('/web/setInviter', { inviteCode: code })));
    const paid = results.filter((r) => r.body.retcode === 0);
    const refused = results.filter((r) => r.body.retcode !== 0);
    expect(paid).toHaveLength(cap);
    expect(refused).toHaveLength(4);
    for (const r of refused)
      expect(r.body).toEqual({
        retcode: 400000,
        retmsg: 'This invite code has reached its limit for this month. Please use another code.',
        data: null,
      });
    expect(await balanceOf(inviter)).toBeCloseTo(cap * constants.unlockBonus, 4);
    // a refused friend may still redeem someone else's code
    const elsewhere = await signIn(t.app, { telCode: '1', phone: newPhone() });
    expect(
      (
        await friends[results.indexOf(refused[0]!)]!.post('/web/setInviter', {
          inviteCode: await codeOf(elsewhere),
        })
      ).body.retcode,
    ).toBe(0);
    await ledgerHolds();
    // the rules say so
    expect((await inviter.get('/web/queryInviteInfo')).body.data.inviteRules.join(' ')).toContain(
      `up to ${cap} friends a month`,
    );
  });

  it('pays one phone number once, whichever account it moves to', async () => {
    const inviterA = await signIn(t.app, { telCode: '1', phone: newPhone() });
    const inviterB = await signIn(t.app, { telCode: '1', phone: newPhone() });
    const farmed = newPhone();
    // account 1 redeems with the number, then moves to another number
    const first = await signIn(t.app, { email: uniqueEmail('farm1') });
    await takePhone(first, farmed, 'set');
    expect((await first.post('/web/setInviter', { inviteCode: await codeOf(inviterA) })).body.retcode).toBe(
      0,
    );
    await takePhone(first, newPhone(), 'update');
    // account 2 takes the freed number and tries again, with another inviter's code
    const second = await signIn(t.app, { email: uniqueEmail('farm2') });
    await liftSendLimits(`1${farmed}`);
    await takePhone(second, farmed, 'set');
    const again = await second.post('/web/setInviter', { inviteCode: await codeOf(inviterB) });
    expect(again.body).toEqual({
      retcode: 400000,
      retmsg: 'This phone number has already received an invite bonus.',
      data: null,
    });
    const zh = await t.app.inject({
      method: 'POST',
      url: '/web/setInviter?languagecode=zh_cn',
      headers: { host: 'localhost', 'auth-token': second.token! },
      payload: { platform: 'numa', inviteCode: await codeOf(inviterB) },
    });
    expect(zh.json()).toMatchObject({ retcode: 400000, retmsg: '该手机号已领取过邀请奖励。' });
    expect(await balanceOf(second)).toBe(0);
    expect(await balanceOf(inviterB)).toBe(0);
    expect(await balanceOf(inviterA)).toBeCloseTo(constants.unlockBonus, 4);
    expect(
      await t.db.query(`SELECT redeemer_phone FROM invite_redemptions WHERE redeemer_phone = $1`, [
        `+1${farmed}`,
      ]),
    ).toHaveLength(1);
    await ledgerHolds();
  });
});
