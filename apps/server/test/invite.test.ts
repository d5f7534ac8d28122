import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captchaProof,
  lastCode,
  newCaptchaId,
  signIn,
  startTestApp,
  testDbKind,
  type TestApp,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;
let phoneSeq = 0;
const newPhone = () => `4153${String(phoneSeq++).padStart(6, '0')}`;
type Client = Awaited<ReturnType<typeof signIn>>;

const withPhone = (host?: string) => signIn(t.app, { telCode: '1', phone: newPhone() }, host);
const balanceOf = async (c: Client) => (await c.get('/web/queryBalance')).body.data.balance as number;
const codeOf = async (c: Client) => (await c.get('/web/getInviteCode')).body.data.inviteCode as string;
const bills = (phone: string) =>
  t.db.query<{ type: number; charge: number; idempotencyKey: string }>(
    `SELECT l.type, l.charge, l.idempotency_key AS "idempotencyKey" FROM ledger l JOIN accounts a ON a.id = l.account_id WHERE a.phone = $1 ORDER BY l.id`,
    [phone],
  );
const phoneOf = async (c: Client) => (await c.get('/web/getAccountInfo')).body.data.phone as string;

describe(`invite and redeem (${testDbKind})`, () => {
  it('gives each account one stable, upper-case, unguessable code, and the invite page in both languages', async () => {
    const a = await withPhone();
    const code = await codeOf(a);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await codeOf(a)).toBe(code);
    const [first, second] = await Promise.all([withPhone(), withPhone()]);
    const codes = await Promise.all([codeOf(first!), codeOf(first!), codeOf(second!)]);
    expect(codes[0]).toBe(codes[1]);
    expect(codes[2]).not.toBe(codes[0]);

    const info = (await a.get('/web/queryInviteInfo')).body.data;
    expect(info.inviteCode).toBe(code);
    expect(info.inviteRules.length).toBeGreaterThanOrEqual(4);
    expect(info.inviteRules.join(' ')).toContain('0.2 Coins');
    expect(info.inviteRules.join(' ')).toContain('Numa');
    expect(info.earnTip).toHaveLength(3);
    expect(info.inviteHint).toMatch(/phone number/);
    const zh = await t.app.inject({
      url: '/web/queryInviteInfo?languagecode=zh_cn',
      headers: { host: 'localhost', 'auth-token': a.token! },
    });
    expect(zh.json().data.inviteRules.join('')).toContain('0.2 金币');
    expect(zh.json().data.earnTip[0].title).toBe('分享邀请码');

    const cloud = await withPhone('cloudnumber.localhost');
    expect((await cloud.get('/web/queryInviteInfo')).body.data.inviteRules.join(' ')).toContain('0.2 云币');
  });

  it('refuses the invite page to an account that cannot invite', async () => {
    const a = await withPhone();
    await t.db.query(`UPDATE accounts SET can_invite = false WHERE phone = $1`, [await phoneOf(a)]);
    expect((await a.get('/web/queryInviteInfo')).body).toMatchObject({ retcode: 100003, data: null });
    expect((await a.get('/web/getInviteCode')).body.retcode).toBe(100003);
    expect((await a.get('/web/getAccountInfo')).body.data.canInvite).toBe(false);
  });

  it('credits 0.2 to each side once, with a bill row each, and closes redeeming', async () => {
    const inviter = await withPhone();
    const friend = await withPhone();
    const code = await codeOf(inviter);
    expect((await friend.get('/web/getInviter')).body.data).toMatchObject({
      canSetInviter: true,
      balance: 0,
      telCode: '1',
    });

    const res = await friend.post('/web/setInviter', { inviteCode: ` ${code.toLowerCase()} ` });
    expect(res.body).toEqual({ retcode: 0, retmsg: '', data: { balance: 0.2, bonus: 0.2 } });
    expect(await balanceOf(friend)).toBe(0.2);
    expect(await balanceOf(inviter)).toBe(0.2);
    const friendPhone = await phoneOf(friend);
    expect(await bills(friendPhone)).toEqual([
      { type: 10, charge: 2000, idempotencyKey: expect.stringMatching(/^invite:redeemer:/) },
    ]);
    expect(await bills(await phoneOf(inviter))).toEqual([
      { type: 7, charge: 2000, idempotencyKey: expect.stringMatching(/^invite:inviter:/) },
    ]);

    expect((await friend.get('/web/getInviter')).body.data.canSetInviter).toBe(false);
    expect((await friend.get('/web/getAccountInfo')).body.data.canSetInviter).toBe(false);
    const again = await friend.post('/web/setInviter', { inviteCode: code });
    expect(again.body).toMatchObject({
      retcode: 400000,
      retmsg: 'You have already redeemed an invite code.',
    });
    const other = await withPhone();
    expect((await friend.post('/web/setInviter', { inviteCode: await codeOf(other) })).body.retcode).toBe(
      400000,
    );
    // a new sign-in says so too
    await t.app.inject({ method: 'DELETE', url: `/dev/rate-limits?to=1${friendPhone}` });
    const relogin = await signIn(t.app, { telCode: '1', phone: friendPhone });
    expect((await relogin.get('/web/getAccountInfo')).body.data.canSetInviter).toBe(false);
    // one code serves many friends
    const second = await withPhone();
    expect((await second.post('/web/setInviter', { inviteCode: code })).body.retcode).toBe(0);
    expect(await balanceOf(inviter)).toBe(0.4);
  });

  it('refuses own, unknown, other-brand and mutual codes, and bad input', async () => {
    const a = await withPhone();
    const own = await a.post('/web/setInviter', { inviteCode: await codeOf(a) });
    expect(own.body).toMatchObject({ retcode: 400000, retmsg: 'You cannot redeem your own invite code.' });
    expect((await a.post('/web/setInviter', { inviteCode: 'ZZZZ2222' })).body.retmsg).toBe(
      'This invite code is not valid.',
    );
    const wephone = await withPhone('wephone.localhost');
    expect((await a.post('/web/setInviter', { inviteCode: await codeOf(wephone) })).body.retmsg).toBe(
      'This invite code is not valid.',
    );
    for (const inviteCode of ['', 'ab', 'AB-CD-12', 'x'.repeat(33)])
      expect((await a.post('/web/setInviter', { inviteCode })).body.retcode).toBe(100001);
    expect((await a.post('/web/setInviter', {})).body.retcode).toBe(100001);

    const b = await withPhone();
    expect((await b.post('/web/setInviter', { inviteCode: await codeOf(a) })).body.retcode).toBe(0);
    const mutual = await a.post('/web/setInviter', { inviteCode: await codeOf(b) });
    expect(mutual.body).toMatchObject({
      retcode: 400000,
      retmsg: 'You cannot redeem the code of a friend who redeemed yours.',
    });
    // a suspended inviter's code no longer works
    const c = await withPhone();
    const suspendedCode = await codeOf(c);
    await t.db.query(`UPDATE accounts SET status = 2 WHERE phone = $1`, [await phoneOf(c)]);
    expect(
      (await (await withPhone()).post('/web/setInviter', { inviteCode: suspendedCode })).body.retcode,
    ).toBe(400000);
    expect(await balanceOf(a)).toBe(0.2);
  });

  it('needs a phone: setting one up (verify modal) unlocks redeeming', async () => {
    const inviter = await withPhone();
    const code = await codeOf(inviter);
    const friend = await signIn(t.app, { email: uniqueEmail('nophone') });
    expect((await friend.get('/web/getInviter')).body.data).toMatchObject({
      phone: '',
      canSetInviter: false,
    });
    expect((await friend.get('/web/getAccountInfo')).body.data.canSetInviter).toBe(true);
    const blocked = await friend.post('/web/setInviter', { inviteCode: code });
    expect(blocked.body.retcode).toBe(100025);
    expect(await balanceOf(inviter)).toBe(0);

    const phone = newPhone();
    const sent = await friend.post('/web/confirmCaptcha', {
      ...(await captchaProof(t.app, newCaptchaId())),
      nextApi: '/web/getVerifyCode',
      telcode: '1',
      phone,
    });
    await friend.post('/web/validateCode', {
      verifyid: sent.body.data.verifyid,
      activationcode: await lastCode(t.app, `1${phone}`),
    });
    expect(
      (
        await friend.post('/web/setPhoneForAccount', {
          telcode: '1',
          phone,
          verifyid: sent.body.data.verifyid,
        })
      ).body.retcode,
    ).toBe(0);

    expect((await friend.get('/web/getInviter', { phone })).body.data).toMatchObject({
      phone,
      canSetInviter: true,
    });
    expect((await friend.get('/web/getInviter', { phone: '4155550000' })).body.retcode).toBe(100003);
    expect((await friend.post('/web/setInviter', { inviteCode: code })).body.data).toEqual({
      balance: 0.2,
      bonus: 0.2,
    });
    expect(await balanceOf(inviter)).toBe(0.2);
  });

  it('pays one bonus when the same account redeems several times at once', async () => {
    const inviter = await withPhone();
    const others = await Promise.all([withPhone(), withPhone()]);
    const friend = await withPhone();
    const code = await codeOf(inviter);
    const otherCodes = await Promise.all(others.map(codeOf));
    const results = await Promise.all(
      [code, code, code, ...otherCodes].map((inviteCode) => friend.post('/web/setInviter', { inviteCode })),
    );
    const ok = results.filter((r) => r.body.retcode === 0);
    expect(ok).toHaveLength(1);
    expect(results.every((r) => r.body.retcode === 0 || r.body.retcode === 400000)).toBe(true);
    expect(await balanceOf(friend)).toBe(0.2);
    const paid = await Promise.all([inviter, ...others].map(balanceOf));
    expect(paid.reduce((s, b) => s + b, 0)).toBeCloseTo(0.2, 10);
    expect(await bills(await phoneOf(friend))).toHaveLength(1);
    const rows = await t.db.query(
      `SELECT * FROM invite_redemptions r JOIN accounts a ON a.id = r.redeemer_id WHERE a.phone = $1`,
      [await phoneOf(friend)],
    );
    expect(rows).toHaveLength(1);
  });

  it('two friends redeeming each other at the same moment: one bonus, no deadlock', async () => {
    const a = await withPhone();
    const b = await withPhone();
    const [codeA, codeB] = [await codeOf(a), await codeOf(b)];
    const [ra, rb] = await Promise.all([
      a.post('/web/setInviter', { inviteCode: codeB }),
      b.post('/web/setInviter', { inviteCode: codeA }),
    ]);
    expect([ra.body.retcode, rb.body.retcode].sort()).toEqual([0, 400000]);
    expect((await balanceOf(a)) + (await balanceOf(b))).toBeCloseTo(0.4, 10);
  });
});
