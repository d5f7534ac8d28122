import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retmsg } from '@numa/contract';
import { buildApp } from '../src/app';
import {
  captchaProof,
  client,
  lastCode,
  newCaptchaId,
  openTestDb,
  signIn,
  solveCaptcha,
  solvePow,
  startTestApp,
  testDbKind,
  testEnv,
  type TestApp,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const email = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.com`;

describe(`sign-in and sessions (${testDbKind})`, () => {
  it('draws raster captchas with a proof-of-work challenge and refuses a malformed id', async () => {
    const c = client(t.app);
    const id = newCaptchaId();
    const res = await c.get('/web/captcha', { captchaId: id });
    expect(res.status).toBe(200);
    expect(res.body.retcode).toBe(0);
    expect(res.body.data.image).toMatch(/^data:image\/webp;base64,/);
    expect(res.body.data.pow.parameters.data).toEqual({ cid: id });
    const again = await c.get('/web/genCaptcha', { captchaId: id });
    expect(again.body.data.image).not.toBe(res.body.data.image);
    const bad = await c.get('/web/captcha', { captchaId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.retcode).toBe(100001);
  });

  it('asks for a captcha, refuses a wrong one with a fresh drawing, then sends a 6-digit e-mail code', async () => {
    const c = client(t.app);
    const addr = email('ann');
    const none = await c.post('/web/preLogin', { email: addr });
    expect(none.body.retcode).toBe(100010);
    expect(none.status).toBe(400);

    const captchaId = newCaptchaId();
    const first = await captchaProof(t.app, captchaId);
    const wrong = await c.post('/web/preLogin', { email: addr, ...first, inputCaptcha: 'zzzz' });
    expect(wrong.body.retcode).toBe(100020);
    expect(wrong.body.data.image).toMatch(/^data:image\/webp;base64,/);
    // the failure counter is the server's cookie (spec 001 §8; the page never writes a cookie)
    expect(String(wrong.headers['set-cookie'])).toMatch(
      /^numa_captcha_failures=1; Path=\/; SameSite=Lax; Max-Age=600$/,
    );
    // a captcha is spent after one try, right or wrong: the new drawing has a new answer and a new challenge
    const answer = (await t.app.inject({ url: `/dev/captcha?captchaId=${captchaId}` })).json().text as string;
    const pow = await solvePow(wrong.body.data.pow);
    const ok = await c.post('/web/preLogin', {
      email: addr.toUpperCase(),
      captchaId,
      inputCaptcha: answer.toUpperCase(),
      pow,
    });
    expect(ok.body).toMatchObject({ retcode: 0, data: { codeLength: 6, resendAfter: 60, expiresIn: 600 } });
    expect(String(ok.headers['set-cookie'])).toMatch(/^numa_captcha_failures=; .*Max-Age=0$/);
    const code = await lastCode(t.app, addr);
    expect(code).toMatch(/^\d{6}$/);
    expect(t.mail.sent.at(-1)).toMatchObject({ to: addr });
    expect(t.mail.sent.at(-1)!.text).toContain(code);
  });

  it('sends 4-digit codes by phone and refuses numbers that cannot exist', async () => {
    const c = client(t.app);
    let captchaId = newCaptchaId();
    const bad = await c.post('/web/preLogin', {
      telCode: '1',
      phone: '12345',
      ...(await captchaProof(t.app, captchaId)),
    });
    expect(bad.body.retcode).toBe(100007);
    captchaId = newCaptchaId();
    const res = await c.post('/web/preLogin', {
      telCode: '1',
      phone: '4155550142',
      ...(await captchaProof(t.app, captchaId)),
    });
    expect(res.body).toMatchObject({ retcode: 0, data: { codeLength: 4 } });
    expect(await lastCode(t.app, '+14155550142')).toMatch(/^\d{4}$/);
  });

  it('refuses a resend within 60 s and says when it is allowed', async () => {
    const c = client(t.app);
    const addr = email('bob');
    let captchaId = newCaptchaId();
    await c.post('/web/preLogin', { email: addr, ...(await captchaProof(t.app, captchaId)) });
    captchaId = newCaptchaId();
    const again = await c.post('/web/preLogin', { email: addr, ...(await captchaProof(t.app, captchaId)) });
    expect(again.status).toBe(429);
    expect(again.body.retcode).toBe(100015);
    expect(again.body.data.resendAfter).toBeGreaterThan(50);
  });

  it('limits sends per address per hour', async () => {
    const addr = email('flood');
    const c = client(t.app);
    for (let i = 0; i < 5; i++) {
      const captchaId = newCaptchaId();
      const res = await c.post('/web/preLogin', { email: addr, ...(await captchaProof(t.app, captchaId)) });
      expect(res.body.retcode).toBe(0);
      // pretend the countdown passed
      await t.db.query(`UPDATE rate_events SET at = at - interval '61 seconds' WHERE key LIKE $1`, [
        `%${addr}`,
      ]);
    }
    const captchaId = newCaptchaId();
    const res = await c.post('/web/preLogin', { email: addr, ...(await captchaProof(t.app, captchaId)) });
    expect(res.body.retcode).toBe(100015);
  });

  it('creates the account on first sign-in and finds it on the next', async () => {
    const addr = email('cat');
    const a = await signIn(t.app, { email: addr });
    const info = await a.get('/web/getAccountInfo');
    expect(info.body).toMatchObject({
      retcode: 0,
      data: { email: addr, phone: '', telCode: '', status: 1, canInvite: true, canSetInviter: true },
    });
    const bal = await a.get('/web/queryBalance');
    expect(bal.body).toMatchObject({ retcode: 0, data: { balance: 0 } });
    const [{ n }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM accounts WHERE email = $1',
      [addr],
    );
    expect(n).toBe(1);
    await t.db.query(`UPDATE rate_events SET at = at - interval '61 seconds' WHERE key LIKE $1`, [
      `%${addr}`,
    ]);
    await signIn(t.app, { email: addr });
    const [{ n: n2 }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM accounts WHERE email = $1',
      [addr],
    );
    expect(n2).toBe(1);
  });

  it('keeps one account per brand and address', async () => {
    const addr = email('brands');
    const numa = await signIn(t.app, { email: addr }, 'localhost');
    const wephone = await signIn(t.app, { email: addr }, 'wephone.localhost');
    const rows = await t.db.query<{ brand: string }>(
      'SELECT brand FROM accounts WHERE email = $1 ORDER BY brand',
      [addr],
    );
    expect(rows.map((r) => r.brand)).toEqual(['numa', 'wephone']);
    // a token belongs to its brand's host
    const cross = client(t.app, 'wephone.localhost');
    cross.setToken(numa.token);
    expect((await cross.get('/web/getAccountInfo')).body.retcode).toBe(100012);
    expect((await wephone.get('/web/getAccountInfo')).body.retcode).toBe(0);
  });

  it('counts wrong codes: 100004, then dead after 5 wrong tries (100006)', async () => {
    const c = client(t.app);
    const addr = email('dan');
    const captchaId = newCaptchaId();
    await c.post('/web/preLogin', { email: addr, ...(await captchaProof(t.app, captchaId)) });
    const code = await lastCode(t.app, addr);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      const r = await c.post('/web/login', { email: addr, code: wrongCode });
      expect(r.body.retcode).toBe(100004);
      expect(r.status).toBe(400);
    }
    expect((await c.post('/web/login', { email: addr, code: wrongCode })).body.retcode).toBe(100006);
    expect((await c.post('/web/login', { email: addr, code })).body.retcode).toBe(100006);
  });

  it('refuses an expired code and a code used twice', async () => {
    const c = client(t.app);
    const addr = email('eve');
    const captchaId = newCaptchaId();
    await c.post('/web/preLogin', { email: addr, ...(await captchaProof(t.app, captchaId)) });
    const code = await lastCode(t.app, addr);
    await t.db.query(`UPDATE signin_codes SET expires_at = now() - interval '1 second' WHERE address = $1`, [
      addr,
    ]);
    expect((await c.post('/web/login', { email: addr, code })).body.retcode).toBe(100006);
    await t.db.query(`UPDATE signin_codes SET expires_at = now() + interval '5 minutes' WHERE address = $1`, [
      addr,
    ]);
    const [first, second] = await Promise.all([
      c.post('/web/login', { email: addr, code }),
      c.post('/web/login', { email: addr, code }),
    ]);
    expect([first.body.retcode, second.body.retcode].sort()).toEqual([0, 100006]);
  });

  it('answers the session retcodes of spec 000 §4', async () => {
    const anon = client(t.app);
    const missing = await anon.get('/web/getAccountInfo');
    expect(missing).toMatchObject({ status: 401, body: { retcode: 100012 } });
    anon.setToken('not-a-token');
    expect((await anon.get('/web/getAccountInfo')).body.retcode).toBe(100012);

    const addr = email('fay');
    const first = await signIn(t.app, { email: addr });
    await t.db.query(`UPDATE rate_events SET at = at - interval '61 seconds' WHERE key LIKE $1`, [
      `%${addr}`,
    ]);
    const second = await signIn(t.app, { email: addr });
    // a second sign-in elsewhere ends the first session
    expect((await first.get('/web/getAccountInfo')).body).toMatchObject({ retcode: 100014 });
    expect((await second.get('/web/getAccountInfo')).body.retcode).toBe(0);

    // expired
    await t.db.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL AND account_id = (SELECT id FROM accounts WHERE email = $1)`,
      [addr],
    );
    expect((await second.get('/web/getAccountInfo')).body).toMatchObject({ retcode: 100013 });
  });

  it('refreshes a token: the new one works, the old one only for a short grace', async () => {
    const a = await signIn(t.app, { email: email('gus') });
    const old = a.token;
    const r = await a.get('/web/refreshToken');
    expect(r.body.retcode).toBe(0);
    expect(r.body.data.token).not.toBe(old);
    expect((await a.get('/web/getAccountInfo')).body.retcode).toBe(0); // old token, within grace
    await t.db.query(
      `UPDATE sessions SET revoked_at = now() - interval '2 minutes' WHERE revoke_reason = 'refreshed'`,
    );
    expect((await a.get('/web/getAccountInfo')).body.retcode).toBe(100012);
    a.setToken(r.body.data.token);
    expect((await a.get('/web/getAccountInfo')).body.retcode).toBe(0);
  });

  it('revokes the token on logout', async () => {
    const a = await signIn(t.app, { email: email('hal') });
    expect((await a.post('/web/logout', {})).body.retcode).toBe(0);
    expect((await a.get('/web/queryBalance')).body).toMatchObject({ retcode: 100012 });
  });

  it('tells a suspended account (100008) and a deleted one (200018)', async () => {
    const addr = email('ivy');
    const a = await signIn(t.app, { email: addr });
    await t.db.query('UPDATE accounts SET status = 2 WHERE email = $1', [addr]);
    expect((await a.get('/web/getAccountInfo')).body).toMatchObject({ retcode: 100008 });
    await t.db.query('UPDATE accounts SET status = 3 WHERE email = $1', [addr]);
    expect(await a.get('/web/getAccountInfo')).toMatchObject({ status: 401, body: { retcode: 200018 } });
  });
});

describe(`bad input never reaches a 500 (${testDbKind})`, () => {
  it('malformed JSON, wrong types, unknown fields, missing or foreign platform', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/web/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ retcode: 100001, data: null });

    const c = client(t.app);
    const types = await c.post('/web/login', { email: 42, code: ['1'] });
    expect(types.status).toBe(400);
    expect(types.body.retcode).toBe(100001);
    expect(types.body.data.issues.map((i: { path: string }) => i.path)).toContain('email');

    const unknown = await c.post('/web/login', { email: 'a@b.co', code: '123456', admin: true });
    expect(unknown.body.retcode).toBe(100001);
    expect(unknown.body.retmsg).toContain('admin');

    const noPlatform = await t.app.inject({
      method: 'POST',
      url: '/web/login',
      payload: { email: 'a@b.co', code: '123456' },
    });
    expect(noPlatform.json().retcode).toBe(100001);
    const foreign = await c.post('/web/login', { email: 'a@b.co', code: '123456', platform: 'jiema' });
    expect(foreign.body.retcode).toBe(100016);

    const arrayBody = await t.app.inject({ method: 'POST', url: '/web/login', payload: [1, 2] });
    expect(arrayBody.json().retcode).toBe(100001);

    const text = await t.app.inject({
      method: 'POST',
      url: '/web/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hi',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().retcode).toBe(100001);
  });

  it('huge bodies get 100005 and the server keeps serving', async () => {
    const huge = await t.app.inject({
      method: 'POST',
      url: '/web/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ platform: 'numa', email: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().retcode).toBe(100005);
    expect((await t.app.inject({ url: '/healthz' })).json()).toMatchObject({ status: 'ok' });
  });

  it('unknown /web paths and methods answer the envelope with 404', async () => {
    const r = await t.app.inject({ url: '/web/nope' });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toContain('application/json');
    expect(r.json().retcode).toBe(100002);
    const m = await t.app.inject({ method: 'DELETE', url: '/web/login' });
    expect(m.statusCode).toBe(404);
  });

  it('writes retmsg in the caller language', async () => {
    const zh = await t.app.inject({ url: '/web/getAccountInfo?languagecode=zh_cn' });
    expect(zh.json().retmsg).toBe(retmsg(100012, 'zh'));
    const en = await t.app.inject({ url: '/web/getAccountInfo?languagecode=en' });
    expect(en.json().retmsg).toBe(retmsg(100012, 'en'));
  });

  it('rate limits login attempts per IP', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/web/login',
        remoteAddress: '10.9.9.9',
        payload: { platform: 'numa', email: 'x@y.co', code: '123456' },
      });
      last = r.json().retcode;
    }
    expect(last).toBe(100015);
  });

  it('confirmCaptcha checks once and refuses fields without a next call', async () => {
    const c = client(t.app);
    const captchaId = newCaptchaId();
    const answer = await solveCaptcha(t.app, captchaId);
    expect((await c.post('/web/confirmCaptcha', { captchaId, inputCaptcha: answer })).body.retcode).toBe(0);
    expect((await c.post('/web/confirmCaptcha', { captchaId, inputCaptcha: answer })).body.retcode).toBe(
      100020,
    );
    expect(
      (await c.post('/web/confirmCaptcha', { captchaId, inputCaptcha: answer, email: 'a@b.co' })).body
        .retcode,
    ).toBe(100001);
  });
});

describe('production mode', () => {
  it('has no /dev routes', async () => {
    const db = await openTestDb();
    const app = await buildApp({ env: testEnv({ NODE_ENV: 'production' }), db });
    try {
      const r = await app.inject({ url: '/dev/outbox?to=a@b.co' });
      expect(r.statusCode).toBe(404);
      expect(r.json().retcode).toBe(100002);
      expect((await app.inject({ url: '/dev/captcha?captchaId=abcdefgh' })).statusCode).toBe(404);
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
