import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;
/** Distinct well-formed US numbers (area 415, exchange 2xx); each suite has its own database. */
let phoneSeq = 0;
const newPhone = () => `4152${String(phoneSeq++).padStart(6, '0')}`;

type Client = Awaited<ReturnType<typeof signIn>>;

/** Sends a verification code through the captcha, as the client does after 100010 / 100028. */
async function sendThroughCaptcha(
  c: Client,
  nextApi: '/web/getVerifyCode' | '/web/requestToVerifyEmail',
  params: Record<string, unknown>,
) {
  return c.post('/web/confirmCaptcha', {
    ...(await captchaProof(t.app, newCaptchaId())),
    nextApi,
    ...params,
  });
}

async function verifyEmail(c: Client, email: string) {
  const sent = await sendThroughCaptcha(c, '/web/requestToVerifyEmail', { email });
  expect(sent.body.retcode, JSON.stringify(sent.body)).toBe(0);
  const ok = await c.post('/web/validateCodeForEmail', {
    verifyid: sent.body.data.verifyid,
    activationcode: await lastCode(t.app, email),
  });
  expect(ok.body.retcode).toBe(0);
  return sent.body.data.verifyid as string;
}

async function verifyPhone(c: Client, phone: string, telcode = '1') {
  const sent = await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode, phone });
  expect(sent.body.retcode, JSON.stringify(sent.body)).toBe(0);
  const ok = await c.post('/web/validateCode', {
    verifyid: sent.body.data.verifyid,
    activationcode: await lastCode(t.app, `${telcode}${phone}`),
  });
  expect(ok.body.retcode).toBe(0);
  return sent.body.data.verifyid as string;
}

describe(`verify a phone or an e-mail (${testDbKind})`, () => {
  it('asks for the captcha on direct calls: 100028 for the phone code, 100010 for the e-mail code', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('direct') });
    const phone = newPhone();
    const byPhone = await c.get('/web/getVerifyCode', { telcode: '1', phone });
    expect(byPhone.status).toBe(400);
    expect(byPhone.body.retcode).toBe(100028);
    const byMail = await c.post('/web/requestToVerifyEmail', { email: uniqueEmail('x') });
    expect(byMail.body.retcode).toBe(100010);
    // the input is checked first: a number that cannot exist, a malformed e-mail
    expect((await c.get('/web/getVerifyCode', { telcode: '1', phone: '12345' })).body.retcode).toBe(100007);
    expect((await c.get('/web/getVerifyCode', { telcode: '12345', phone })).body.retcode).toBe(100001);
    expect((await c.post('/web/requestToVerifyEmail', { email: 'nope@' })).body.retcode).toBe(100001);
    // nothing was sent
    const outbox = await t.app.inject({ url: `/dev/outbox?to=1${phone}` });
    expect(outbox.json().messages).toEqual([]);
    // and only for a signed-in account
    const anon = client(t.app);
    expect((await anon.get('/web/getVerifyCode', { telcode: '1', phone })).body.retcode).toBe(100012);
  });

  it('verifies an e-mail through the captcha and the outbox, then sets and updates it', async () => {
    const phone = newPhone();
    const c = await signIn(t.app, { telCode: '1', phone });
    const email = uniqueEmail('Mixed.Case').toUpperCase();
    const sent = await sendThroughCaptcha(c, '/web/requestToVerifyEmail', { email });
    expect(sent.body).toMatchObject({ retcode: 0, data: { codeLength: 6, resendAfter: 60, expiresIn: 600 } });
    const { verifyid } = sent.body.data;
    const lower = email.toLowerCase();
    const mail = (await t.app.inject({ url: `/dev/outbox?to=${encodeURIComponent(lower)}` })).json()
      .messages[0];
    expect(mail.text).toContain('verification code');
    expect(mail.code).toMatch(/^\d{6}$/);

    // setting before the code is checked is refused
    expect((await c.post('/web/setEmailForAccount', { email: lower, verifyid })).body.retcode).toBe(100006);
    const wrongCode = mail.code === '000000' ? '111111' : '000000';
    expect(
      (await c.post('/web/validateCodeForEmail', { verifyid, activationcode: wrongCode })).body.retcode,
    ).toBe(100004);
    // a phone code length on the e-mail call is bad input; the phone call does not take e-mail verifications
    expect(
      (await c.post('/web/validateCodeForEmail', { verifyid, activationcode: '1234' })).body.retcode,
    ).toBe(100001);
    expect((await c.post('/web/validateCode', { verifyid, activationcode: '1234' })).body.retcode).toBe(
      100006,
    );
    expect(
      (await c.post('/web/validateCodeForEmail', { verifyid, activationcode: mail.code })).body.retcode,
    ).toBe(0);

    // update needs an existing address; set gives it
    expect((await c.post('/web/updateEmail', { email: lower, verifyid })).body.retcode).toBe(400000);
    const set = await c.post('/web/setEmailForAccount', { email: lower, verifyid });
    expect(set.body).toMatchObject({ retcode: 0, data: { telCode: '1', phone, email: lower } });
    const info = await c.get('/web/getAccountInfo');
    expect(info.body.data).toMatchObject({ email: lower, phone, telCode: '1' });
    // a verification is spent once
    expect((await c.post('/web/setEmailForAccount', { email: lower, verifyid })).body.retcode).toBe(100006);

    // replace it with another verified address; set is refused now that it has one
    const next = uniqueEmail('next');
    const v2 = await verifyEmail(c, next);
    expect((await c.post('/web/setEmailForAccount', { email: next, verifyid: v2 })).body).toMatchObject({
      retcode: 400000,
      retmsg: 'This account already has an email address. Change it instead.',
    });
    const upd = await c.post('/web/updateEmail', { email: next, verifyid: v2 });
    expect(upd.body.data).toEqual({ telCode: '1', phone, email: next });
    // the new address signs in to the same account
    const again = await signIn(t.app, { email: next });
    expect((await again.get('/web/getAccountInfo')).body.data.phone).toBe(phone);
  });

  it('verifies a phone with a 4-digit code, then sets and updates it', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('phone') });
    const phone = newPhone();
    const sent = await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode: '1', phone });
    expect(sent.body).toMatchObject({ retcode: 0, data: { codeLength: 4 } });
    const sms = (await t.app.inject({ url: `/dev/outbox?to=1${phone}` })).json().messages[0];
    expect(sms.code).toMatch(/^\d{4}$/);
    expect(
      (await c.post('/web/validateCode', { verifyid: sent.body.data.verifyid, activationcode: sms.code }))
        .body.retcode,
    ).toBe(0);
    // the verification proves this number only
    const other = newPhone();
    expect(
      (
        await c.post('/web/setPhoneForAccount', {
          telcode: '1',
          phone: other,
          verifyid: sent.body.data.verifyid,
        })
      ).body.retcode,
    ).toBe(100006);
    expect(
      (await c.post('/web/updatePhone', { telcode: '1', phone, verifyid: sent.body.data.verifyid })).body
        .retcode,
    ).toBe(400000);
    const set = await c.post('/web/setPhoneForAccount', {
      telcode: '1',
      phone,
      verifyid: sent.body.data.verifyid,
    });
    expect(set.body.data).toMatchObject({ telCode: '1', phone });
    expect((await c.get('/web/getAccountInfo')).body.data).toMatchObject({ telCode: '1', phone });

    const v2 = await verifyPhone(c, other);
    expect(
      (await c.post('/web/updatePhone', { telcode: '1', phone: other, verifyid: v2 })).body.data,
    ).toMatchObject({ phone: other });
  });

  it('a resend waits 60 s, and five wrong codes kill the code', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('limits') });
    const phone = newPhone();
    const first = await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode: '1', phone });
    expect(first.body.retcode).toBe(0);
    const again = await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode: '1', phone });
    expect(again.body.retcode).toBe(100015);
    expect(again.body.data.resendAfter).toBeGreaterThan(0);
    const code = await lastCode(t.app, `1${phone}`);
    const wrong = code === '0000' ? '1111' : '0000';
    const results: number[] = [];
    for (let i = 0; i < 5; i++)
      results.push(
        (await c.post('/web/validateCode', { verifyid: first.body.data.verifyid, activationcode: wrong }))
          .body.retcode,
      );
    expect(results).toEqual([100004, 100004, 100004, 100004, 100006]);
    expect(
      (await c.post('/web/validateCode', { verifyid: first.body.data.verifyid, activationcode: code })).body
        .retcode,
    ).toBe(100006);
  });

  it("refuses an address another account of the brand has, and another account's verifyid", async () => {
    const ownerPhone = newPhone();
    await signIn(t.app, { telCode: '1', phone: ownerPhone });
    const ownerEmail = uniqueEmail('owner');
    await signIn(t.app, { email: ownerEmail });

    const c = await signIn(t.app, { email: uniqueEmail('taker') });
    const p = await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode: '1', phone: ownerPhone });
    expect(p.status).toBe(400);
    expect(p.body.retcode).toBe(100017);
    expect(p.body.retmsg).toBe('This phone number is already used by another account.');
    const e = await sendThroughCaptcha(c, '/web/requestToVerifyEmail', { email: ownerEmail });
    expect(e.body.retcode).toBe(100018);

    // the same address on another brand is someone else's business
    const wephone = await signIn(t.app, { email: uniqueEmail('wp') }, 'wephone.localhost');
    const other = await wephone.post('/web/confirmCaptcha', {
      ...(await captchaProof(t.app, newCaptchaId(), 'wephone.localhost')),
      nextApi: '/web/requestToVerifyEmail',
      email: ownerEmail,
    });
    expect(other.body.retcode).toBe(0);

    // a verifyid is its account's only
    const mine = await sendThroughCaptcha(c, '/web/requestToVerifyEmail', { email: uniqueEmail('mine') });
    const thief = await signIn(t.app, { email: uniqueEmail('thief') });
    const code = await lastCode(
      t.app,
      (
        await t.db.query<{ email: string }>(`SELECT email FROM address_verifications WHERE id = $1`, [
          mine.body.data.verifyid,
        ])
      )[0]!.email,
    );
    expect(
      (
        await thief.post('/web/validateCodeForEmail', {
          verifyid: mine.body.data.verifyid,
          activationcode: code,
        })
      ).body.retcode,
    ).toBe(100006);
    expect(
      (await c.post('/web/validateCodeForEmail', { verifyid: mine.body.data.verifyid, activationcode: code }))
        .body.retcode,
    ).toBe(0);
    const row = await t.db.query<{ email: string }>(`SELECT email FROM address_verifications WHERE id = $1`, [
      mine.body.data.verifyid,
    ]);
    expect(
      (
        await thief.post('/web/setEmailForAccount', {
          email: row[0]!.email,
          verifyid: mine.body.data.verifyid,
        })
      ).body.retcode,
    ).toBe(100006);
    expect((await thief.get('/web/getAccountInfo')).body.data.email).not.toBe(row[0]!.email);
  });

  it('two accounts verifying one phone: the first to set it wins, even at the same moment', async () => {
    const phone = newPhone();
    const a = await signIn(t.app, { email: uniqueEmail('race-a') });
    const b = await signIn(t.app, { email: uniqueEmail('race-b') });
    const va = await verifyPhone(a, phone);
    await t.app.inject({ method: 'DELETE', url: `/dev/rate-limits?to=1${phone}` });
    const vb = await verifyPhone(b, phone);
    const [ra, rb] = await Promise.all([
      a.post('/web/setPhoneForAccount', { telcode: '1', phone, verifyid: va }),
      b.post('/web/setPhoneForAccount', { telcode: '1', phone, verifyid: vb }),
    ]);
    const codes = [ra.body.retcode, rb.body.retcode].sort();
    expect(codes).toEqual([0, 100017]);
    const holders = await t.db.query(`SELECT id FROM accounts WHERE tel_code = '1' AND phone = $1`, [phone]);
    expect(holders).toHaveLength(1);
  });

  it('confirmCaptcha refuses a wrong captcha, bad parameters and a missing session for the verify calls', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('cc') });
    const proof = await captchaProof(t.app, newCaptchaId());
    const wrong = await c.post('/web/confirmCaptcha', {
      ...proof,
      inputCaptcha: 'zzzz',
      nextApi: '/web/requestToVerifyEmail',
      email: uniqueEmail('w'),
    });
    expect(wrong.body.retcode).toBe(100020);
    expect(wrong.body.data.image).toMatch(/^data:image\/webp;base64,/);
    expect((await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode: '1' })).body.retcode).toBe(100001);
    expect(
      (await sendThroughCaptcha(c, '/web/getVerifyCode', { telcode: '1', phone: newPhone(), extra: 1 })).body
        .retcode,
    ).toBe(100001);
    const anon = client(t.app);
    const res = await anon.post('/web/confirmCaptcha', {
      ...(await captchaProof(t.app, newCaptchaId())),
      nextApi: '/web/getVerifyCode',
      telcode: '1',
      phone: newPhone(),
    });
    expect(res.body.retcode).toBe(100012);
  });
});
