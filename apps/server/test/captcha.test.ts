import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import svgCaptcha from 'svg-captcha';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { CaptchaImage } from '@numa/contract';
import { captchaAlphabet, renderCaptcha } from '../src/lib/captcha-image';
import {
  captchaProof,
  client,
  newCaptchaId,
  signIn,
  solvePow,
  startTestApp,
  testDbKind,
  type TestApp,
} from './helpers';

/**
 * Issue 9, hole 2: the captcha cannot be read from its answer's text, and a code send needs a solved,
 * fresh, unused proof of work. Issue 13, defect 4: the resend wait is told before any captcha.
 */
let t: TestApp;
let tDefault: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // the proof of work at its real difficulty (the other suites use a small one)
  tDefault = await startTestApp({ envOverrides: { CAPTCHA_POW_MAX: '30000' } });
});
afterAll(async () => {
  await t?.close();
  await tDefault?.close();
});

const email = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@example.com`;

/**
 * The script that read the old captcha: it learns each glyph's path commands from svg-captcha's own
 * drawings (the letters of the commands survive svg-captcha's jitter of the coordinates), then reads
 * a captcha by matching each filled path and ordering them left to right.
 */
function pathSolver() {
  /** A path as its commands and its points relative to the first (svg-captcha moves points by ±0.1 only). */
  const shape = (d: string) => {
    const numbers = [...d.matchAll(/-?[\d.]+/g)].map((m) => Number(m[0]));
    const [x0 = 0, y0 = 0] = numbers;
    return {
      commands: d.replace(/[^A-Za-z]/g, ''),
      points: numbers.map((n, i) => n - (i % 2 === 0 ? x0 : y0)),
    };
  };
  const glyphPaths = (svg: string) =>
    [...svg.matchAll(/<path fill="[^"]+" d="([^"]+)"\/>/g)].map((m) => {
      const d = m[1]!;
      const xs = [...d.matchAll(/[A-Z]\s*(-?[\d.]+)/g)].map((c) => Number(c[1]));
      return { ...shape(d), x: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length) };
    });
  const drawText = svgCaptcha as unknown as (text: string, opts: object) => string;
  const known: { ch: string; commands: string; points: number[] }[] = [];
  for (const ch of 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789') {
    // a glyph's shape depends only on the character, not on where it stands
    const [p] = glyphPaths(drawText(ch, { noise: 0 }));
    if (p) known.push({ ch: ch.toLowerCase(), commands: p.commands, points: p.points });
  }
  const read = (p: { commands: string; points: number[] }) => {
    let best = { ch: '?', distance: Infinity };
    for (const k of known) {
      if (k.commands !== p.commands || k.points.length !== p.points.length) continue;
      const distance = Math.max(...k.points.map((v, i) => Math.abs(v - p.points[i]!)));
      if (distance < best.distance) best = { ch: k.ch, distance };
    }
    return best.distance < 1 ? best.ch : '?';
  };
  return (body: string): string =>
    glyphPaths(body)
      .sort((a, b) => a.x - b.x)
      .map(read)
      .join('');
}

async function draw(app: TestApp['app'], captchaId = newCaptchaId()) {
  const res = await app.inject({ url: `/web/genCaptcha?captchaId=${captchaId}` });
  const answer = (await app.inject({ url: `/dev/captcha?captchaId=${captchaId}` })).json().text as string;
  return { body: res.body, data: res.json().data as CaptchaImage, answer, captchaId };
}

describe(`a captcha a script cannot read (${testDbKind})`, () => {
  it('the old solver read svg-captcha 20 times out of 20', () => {
    const solve = pathSolver();
    let solved = 0;
    for (let i = 0; i < 20; i++) {
      const { text, data } = svgCaptcha.create({
        size: 4,
        ignoreChars: '0oO1lIi',
        noise: 2,
        color: true,
        background: '#f4f4f5',
      });
      if (solve(data) === text.toLowerCase()) solved++;
    }
    expect(solved).toBe(20);
  });

  it('serves a raster picture: no SVG, no path, no text, no answer anywhere in the body; the solver gets nothing', async () => {
    const solve = pathSolver();
    for (let i = 0; i < 20; i++) {
      const { body, data, answer } = await draw(t.app);
      expect(answer).toMatch(new RegExp(`^[${captchaAlphabet}]{4}$`));
      expect(data.image).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/]+=*$/);
      // the text around the picture says nothing (the picture's base64 is binary; a chance match of
      // a few letters in it means nothing, so its decoded bytes are checked instead: CI once found
      // `xmlns` or `/d=` by chance in 20 pictures' base64)
      const around = body
        .replace(/data:image\/webp;base64,[A-Za-z0-9+/]+=*/, 'data:image/webp;base64,')
        .toLowerCase();
      expect(around).not.toMatch(/<svg|<path|<text|\bd="|xmlns/i);
      expect(around).not.toContain(answer);
      // not in the picture's bytes either, in any case or as base64 of the answer
      const bytes = Buffer.from(data.image.split(',')[1]!, 'base64');
      for (const needle of [answer, answer.toUpperCase()])
        expect(bytes.includes(Buffer.from(needle))).toBe(false);
      expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
      expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
      expect(solve(body)).toBe('');
      // it decodes to a picture of the declared size (at twice the density)
      const img = await loadImage(bytes);
      expect([img.width, img.height]).toEqual([data.width * 2, data.height * 2]);
    }
  });

  it('draws the same answer twice as unrelated pictures', async () => {
    const a = await renderCaptcha('x7k2');
    const b = await renderCaptcha('x7k2');
    expect(a.bytes.equals(b.bytes)).toBe(false);
    // compared pixel by pixel, the two drawings of one answer differ as much as two different answers do
    const pixels = async (bytes: Buffer) => {
      const img = await loadImage(bytes);
      const canvas = createCanvas(img.width, img.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      return ctx.getImageData(0, 0, img.width, img.height).data;
    };
    const diff = (p: Uint8ClampedArray, q: Uint8ClampedArray) => {
      let d = 0;
      for (let i = 0; i < p.length; i += 4)
        d += Math.abs(p[i]! - q[i]!) + Math.abs(p[i + 1]! - q[i + 1]!) + Math.abs(p[i + 2]! - q[i + 2]!);
      return d / (p.length / 4);
    };
    const [pa, pb, pc] = await Promise.all([
      pixels(a.bytes),
      pixels(b.bytes),
      pixels((await renderCaptcha('mp3e')).bytes),
    ]);
    const same = diff(pa, pb);
    const other = diff(pa, pc);
    expect(same).toBeGreaterThan(20);
    expect(same).toBeGreaterThan(other * 0.5);
  });
});

describe(`proof of work on the calls that send codes (${testDbKind})`, () => {
  it('refuses a code send without a solved challenge (100029), then sends with one (real difficulty)', async () => {
    const c = client(tDefault.app);
    const addr = email('pow');
    const { data, answer, captchaId } = await draw(tDefault.app);
    expect(data.pow.parameters).toMatchObject({ algorithm: 'SHA-256', data: { cid: captchaId } });
    const without = await c.post('/web/preLogin', { email: addr, captchaId, inputCaptcha: answer });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ retcode: 100029, data: null });
    expect(without.body.retmsg).toMatch(/security check/i);
    // the captcha was not spent by the refusal: solved now, it goes through
    const started = Date.now();
    const pow = await solvePow(data.pow);
    const solvedInMs = Date.now() - started;
    const ok = await c.post('/web/preLogin', { email: addr, captchaId, inputCaptcha: answer, pow });
    expect(ok.body.retcode).toBe(0);
    expect(solvedInMs).toBeGreaterThan(0);
  });

  it('refuses a replayed challenge, a tampered one, a wrong key and one of another captcha', async () => {
    const c = client(t.app);
    const proof = await captchaProof(t.app, newCaptchaId());
    expect((await c.post('/web/preLogin', { email: email('replay'), ...proof })).body.retcode).toBe(0);
    // the same proof again, with a fresh captcha answer for the same id: the challenge is spent
    const answer = (await captchaProof(t.app, proof.captchaId)).inputCaptcha;
    const replay = await c.post('/web/preLogin', {
      email: email('replay2'),
      captchaId: proof.captchaId,
      inputCaptcha: answer,
      pow: proof.pow,
    });
    expect(replay.body.retcode).toBe(100029);

    const decoded = JSON.parse(
      Buffer.from((await captchaProof(t.app, newCaptchaId())).pow, 'base64').toString(),
    );
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const fresh = await captchaProof(t.app, newCaptchaId());
    const freshDecoded = JSON.parse(Buffer.from(fresh.pow, 'base64').toString());
    const cases: [string, string][] = [
      ['another captcha’s proof', encode(decoded)],
      [
        'an easier prefix',
        encode({
          ...freshDecoded,
          challenge: {
            ...freshDecoded.challenge,
            parameters: { ...freshDecoded.challenge.parameters, keyPrefix: '0' },
          },
        }),
      ],
      [
        'a wrong key',
        encode({ ...freshDecoded, solution: { ...freshDecoded.solution, derivedKey: '00'.repeat(32) } }),
      ],
      ['not JSON', Buffer.from('hello').toString('base64')],
    ];
    for (const [name, pow] of cases) {
      const res = await c.post('/web/preLogin', {
        email: email('tamper'),
        captchaId: fresh.captchaId,
        inputCaptcha: fresh.inputCaptcha,
        pow,
      });
      expect(res.body.retcode, name).toBe(100029);
    }
    // an expired challenge
    const late = await captchaProof(t.app, newCaptchaId());
    await t.db.query(`UPDATE captchas SET expires_at = now() + interval '1 hour' WHERE id = $1`, [
      late.captchaId,
    ]);
    const realNow = Date.now;
    Date.now = () => realNow() + 6 * 60_000;
    try {
      const res = await c.post('/web/preLogin', { email: email('late'), ...late });
      expect(res.body.retcode).toBe(100029);
    } finally {
      Date.now = realNow;
    }
  });

  it('needs the proof of work on the verify code sends through confirmCaptcha, not on a plain confirmCaptcha', async () => {
    const c = await signIn(t.app, { email: email('verify-pow') });
    const proof = await captchaProof(t.app, newCaptchaId());
    const { pow: _pow, ...noPow } = proof;
    const without = await c.post('/web/confirmCaptcha', {
      ...noPow,
      nextApi: '/web/requestToVerifyEmail',
      email: email('v'),
    });
    expect(without.body.retcode).toBe(100029);
    const withPow = await c.post('/web/confirmCaptcha', {
      ...proof,
      nextApi: '/web/requestToVerifyEmail',
      email: email('v'),
    });
    expect(withPow.body.retcode).toBe(0);
    expect(withPow.body.data.verifyid).toBeTruthy();
    const plain = await captchaProof(t.app, newCaptchaId());
    expect(
      (await c.post('/web/confirmCaptcha', { captchaId: plain.captchaId, inputCaptcha: plain.inputCaptcha }))
        .body.retcode,
    ).toBe(0);
  });
});

describe(`the resend wait comes before the captcha (issue 13, defect 4) (${testDbKind})`, () => {
  it('sign-in: a second ask within 60 s gets 100015 with the seconds left, before any captcha', async () => {
    const c = client(t.app);
    const addr = email('again');
    // never sent: the captcha is asked for
    expect((await c.post('/web/preLogin', { email: addr })).body.retcode).toBe(100010);
    await signIn(t.app, { email: addr });
    // signed straight back in after a logout: no captcha, the wait
    const wait = await c.post('/web/preLogin', { email: addr });
    expect(wait.status).toBe(429);
    expect(wait.body.retcode).toBe(100015);
    expect(wait.body.data.resendAfter).toBeGreaterThan(50);
    expect(wait.body.data.resendAfter).toBeLessThanOrEqual(60);
    // the wait passed: the captcha again
    await t.db.query(`UPDATE rate_events SET at = at - interval '61 seconds' WHERE key LIKE $1`, [
      `%${addr}`,
    ]);
    expect((await c.post('/web/preLogin', { email: addr })).body.retcode).toBe(100010);
  });

  it('verify: the direct calls tell the wait before asking for the captcha', async () => {
    const c = await signIn(t.app, { email: email('verify-wait') });
    const to = email('target');
    expect((await c.post('/web/requestToVerifyEmail', { email: to })).body.retcode).toBe(100010);
    const sent = await c.post('/web/confirmCaptcha', {
      ...(await captchaProof(t.app, newCaptchaId())),
      nextApi: '/web/requestToVerifyEmail',
      email: to,
    });
    expect(sent.body.retcode).toBe(0);
    const wait = await c.post('/web/requestToVerifyEmail', { email: to });
    expect(wait.body).toMatchObject({ retcode: 100015, data: { resendAfter: expect.any(Number) } });
    const phone = `41555${String(Date.now() % 100000).padStart(5, '0')}`;
    expect((await c.get('/web/getVerifyCode', { telcode: '1', phone })).body.retcode).toBe(100028);
    await c.post('/web/confirmCaptcha', {
      ...(await captchaProof(t.app, newCaptchaId())),
      nextApi: '/web/getVerifyCode',
      telcode: '1',
      phone,
    });
    const phoneWait = await c.get('/web/getVerifyCode', { telcode: '1', phone });
    expect(phoneWait.body.retcode).toBe(100015);
    expect(phoneWait.body.data.resendAfter).toBeGreaterThan(50);
  });
});
