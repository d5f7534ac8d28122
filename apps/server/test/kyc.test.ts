import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReviewService } from '../src/services/review';
import { signIn, startTestApp, testDbKind, type TestApp } from './helpers';

const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));
/** A JPEG as file-type sees it: SOI, a JFIF APP0 segment, then data. */
const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(200, 1),
  Buffer.from([0xff, 0xd9]),
]);
/** A PNG signature padded to a size. */
const pngOfSize = (n: number) => Buffer.concat([png, Buffer.alloc(n - png.length)]);

let t: TestApp;
/** The media store of this suite (identity images are written for real). */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-kyc-'));
beforeAll(async () => {
  t = await startTestApp({ envOverrides: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;

type Client = Awaited<ReturnType<typeof signIn>>;
type Part = Buffer | { bytes: Buffer; name: string; type?: string };

/** Posts updateKYCInfo as the browser does: multipart with the image parts, URL fields and platform. */
async function upload(
  c: Client,
  parts: Record<string, Part | string | (Part | string)[]>,
  opts: { platform?: string | null; host?: string } = {},
) {
  const form = new FormData();
  if (opts.platform !== null) form.append('platform', opts.platform ?? 'numa');
  for (const [key, value] of Object.entries(parts)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string') form.append(key, v);
      else {
        const p = Buffer.isBuffer(v) ? { bytes: v, name: `${key}.png`, type: 'image/png' } : v;
        form.append(key, new Blob([new Uint8Array(p.bytes)], { type: p.type ?? 'image/png' }), p.name);
      }
    }
  }
  const res = await t.app.inject({
    method: 'POST',
    url: '/web/updateKYCInfo?languagecode=en',
    headers: { host: opts.host ?? 'localhost', ...(c.token ? { 'auth-token': c.token } : {}) },
    payload: form,
    remoteAddress: `10.77.${Math.floor(seq / 250)}.${(seq++ % 250) + 1}`,
  });
  return { status: res.statusCode, body: res.json() };
}

const readMedia = (c: Client, url: string) => t.app.inject({ url, headers: { 'auth-token': c.token! } });

describe(`identity documents (${testDbKind})`, () => {
  it('starts with nothing on file, accepts png and jpeg by content, and serves them to the owner only', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('kyc') });
    expect((await c.get('/web/getKYCInfo')).body.data).toEqual({
      status: -1,
      idCardUrl1: '',
      idCardUrl2: '',
      idHoldUrl1: '',
      idHoldUrl2: '',
      refuseReason: '',
    });

    // the declared type and name do not matter, the bytes do
    const res = await upload(c, {
      idCard1: png,
      idCard2: { bytes: jpeg, name: 'back.bin', type: 'application/octet-stream' },
      idHold1: jpeg,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 1, idHoldUrl2: '', refuseReason: '' });
    const info = (await c.get('/web/getKYCInfo')).body.data;
    expect(info).toEqual(res.body.data);
    for (const url of [info.idCardUrl1, info.idCardUrl2, info.idHoldUrl1])
      expect(url).toMatch(/^\/media\/[A-Za-z0-9_-]+$/);

    const front = await readMedia(c, info.idCardUrl1);
    expect(front.statusCode).toBe(200);
    expect(front.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(front.rawPayload, png)).toBe(0);
    expect((await readMedia(c, info.idCardUrl2)).headers['content-type']).toBe('image/jpeg');

    const stranger = await signIn(t.app, { email: uniqueEmail('stranger') });
    expect((await readMedia(stranger, info.idCardUrl1)).statusCode).toBe(404);
    expect((await t.app.inject({ url: info.idCardUrl1 })).statusCode).toBe(401);
    expect((await stranger.get('/web/getKYCInfo')).body.data.status).toBe(-1);

    // under review: no more uploads or deletes
    const locked = await upload(c, { idCard1: png, idCard2: png });
    expect(locked.body.retcode).toBe(400000);
    expect(locked.body.retmsg).toContain('cannot be changed');
    const { retcode } = (await upload(c, { idCardUrl1: info.idCardUrl1, idCardUrl2: info.idCardUrl2 })).body;
    expect(retcode).toBe(400000);
    expect((await c.get('/web/getKYCInfo')).body.data).toEqual(info);
  });

  it('refuses a wrong type renamed to .png, a 6 MB image and a third image in a section, writing nothing', async () => {
    const email = uniqueEmail('bad');
    const c = await signIn(t.app, { email });
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const wrongType = await upload(c, {
      idCard1: png,
      idCard2: { bytes: html, name: 'id.png', type: 'image/png' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({
      retcode: 300038,
      retmsg: 'Please upload an image in a supported format.',
      data: { field: 'idCard2' },
    });
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    expect((await upload(c, { idCard1: png, idCard2: { bytes: gif, name: 'a.jpg' } })).body.retcode).toBe(
      300038,
    );
    const empty = await upload(c, { idCard1: png, idCard2: { bytes: Buffer.alloc(0), name: 'a.png' } });
    expect(empty.body.retcode).toBe(300038);

    const big = await upload(c, { idCard1: png, idCard2: pngOfSize(6 * 1024 * 1024) });
    expect(big.status).toBe(400);
    expect(big.body).toMatchObject({
      retcode: 100005,
      retmsg: 'The image size must not exceed 5MB.',
      data: { field: 'idCard2', maxBytes: 5_242_880 },
    });
    const zhBig = await t.app.inject({
      method: 'POST',
      url: '/web/updateKYCInfo?languagecode=zh_cn',
      headers: { host: 'localhost', 'auth-token': c.token! },
      payload: (() => {
        const f = new FormData();
        f.append('platform', 'numa');
        f.append('idCard1', new Blob([pngOfSize(5_242_881)]), 'a.png');
        return f;
      })(),
    });
    expect(zhBig.json().retmsg).toBe('图片大小不能超过 5MB。');

    const three = await upload(c, { idCard1: [png, png], idCard2: png });
    expect(three.body).toMatchObject({
      retcode: 100001,
      retmsg: 'You can upload at most 2 images in each section.',
    });
    expect((await upload(c, { idCard1: png, idCard2: png, idCard3: png })).body.retmsg).toBe(
      'You can upload at most 2 images in each section.',
    );
    const five = await upload(c, { idCard1: png, idCard2: png, idHold1: png, idHold2: png, extra: png });
    expect(five.body.retcode).toBe(100001);

    // front and back are both needed; unknown fields, a missing or foreign platform, a bad URL
    expect((await upload(c, { idCard1: png, idHold1: png })).body.retmsg).toBe(
      'Please upload the front and the back of your ID.',
    );
    expect((await upload(c, { idCard1: png, idCard2: png, note: 'hi' })).body.retcode).toBe(100001);
    expect((await upload(c, { idCard1: png, idCard2: png }, { platform: null })).body.retcode).toBe(100001);
    expect((await upload(c, { idCard1: png, idCard2: png }, { platform: 'wephone' })).body.retcode).toBe(
      100016,
    );
    expect(
      (await upload(c, { idCard1: png, idCard2: png, idHoldUrl1: 'javascript:alert(1)' })).body.retcode,
    ).toBe(100001);
    // not multipart at all
    expect((await c.post('/web/updateKYCInfo', { idCardUrl1: '' })).body.retcode).toBe(100001);
    // not signed in: refused before the body is read
    const anon = await upload({ token: undefined } as unknown as Client, { idCard1: png, idCard2: png });
    expect(anon.body.retcode).toBe(100012);

    // nothing was written: no submission, no media rows, no stored files
    expect((await c.get('/web/getKYCInfo')).body.data.status).toBe(-1);
    const rows = await t.db.query(
      `SELECT m.id FROM media m JOIN accounts a ON a.id = m.account_id WHERE a.email = $1`,
      [email],
    );
    expect(rows).toEqual([]);
  });

  it('takes a 5 MB image exactly', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('five') });
    const res = await upload(c, { idCard1: pngOfSize(5_242_880), idCard2: jpeg });
    expect(res.body.retcode).toBe(0);
  });

  it('after a refusal keeps images by URL, replaces and deletes others, and refuses images that are not on file', async () => {
    const email = uniqueEmail('refused');
    const c = await signIn(t.app, { email });
    const first = (await upload(c, { idCard1: png, idCard2: png, idHold1: png, idHold2: jpeg })).body.data;
    const [{ id }] = await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [email]);
    const reviews = createReviewService(t.db, t.app.deps.media);
    const profiles = {
      review: async (...a: Parameters<typeof reviews.decide>) => (await reviews.decide(...a)).changed,
    };
    expect(await profiles.review(id!, 'kyc', 'refuse', 'The photo is blurred')).toBe(true);
    expect((await c.get('/web/getKYCInfo')).body.data).toMatchObject({
      status: 100,
      refuseReason: 'The photo is blurred',
    });

    // someone else's image cannot be attached, even by its URL
    const other = await signIn(t.app, { email: uniqueEmail('other') });
    const theirs = (await upload(other, { idCard1: png, idCard2: png })).body.data;
    const foreign = await upload(c, { idCardUrl1: theirs.idCardUrl1, idCardUrl2: first.idCardUrl2 });
    expect(foreign.body.retcode).toBe(100003);
    expect(
      (await upload(c, { idCardUrl1: first.idCardUrl2, idCardUrl2: first.idCardUrl2 })).body.retcode,
    ).toBe(100001);

    // keep the back (moved to the first slot), replace the front, drop one holding image
    const second = await upload(c, {
      idCard2: jpeg,
      idCardUrl1: first.idCardUrl2,
      idHoldUrl1: first.idHoldUrl1,
    });
    expect(second.body.retcode, JSON.stringify(second.body)).toBe(0);
    const now = second.body.data;
    expect(now).toMatchObject({
      status: 1,
      idCardUrl1: first.idCardUrl2,
      idHoldUrl1: first.idHoldUrl1,
      idHoldUrl2: '',
      refuseReason: '',
    });
    expect(now.idCardUrl2).not.toBe(first.idCardUrl2);
    // the images no longer on file are gone, for the owner too
    expect((await readMedia(c, first.idCardUrl1)).statusCode).toBe(404);
    expect((await readMedia(c, first.idHoldUrl2)).statusCode).toBe(404);
    expect((await readMedia(c, now.idCardUrl1)).statusCode).toBe(200);
    const stored = await t.app.deps.media.store.get(first.idCardUrl1.split('/').pop()!);
    expect(stored).toBeNull();

    expect(await profiles.review(id!, 'kyc', 'approve')).toBe(true);
    expect((await c.get('/web/getKYCInfo')).body.data.status).toBe(2);
    expect((await c.get('/web/getProfile')).body.data.profileStatus4Phone).toBe(2);
    expect((await upload(c, { idCard1: png, idCard2: png })).body.retcode).toBe(400000);
  });

  it('two submissions at once: one goes through, the other finds it under review', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('twice') });
    const results = await Promise.all([
      upload(c, { idCard1: png, idCard2: png }),
      upload(c, { idCard1: jpeg, idCard2: jpeg }),
    ]);
    expect(results.map((r) => r.body.retcode).sort()).toEqual([0, 400000]);
  });

  it('leaves no stored file without its row, and no row without its file', async () => {
    const onDisk = readdirSync(path.join(dataDir, 'media'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
    const rows = await t.db.query<{ id: string }>(
      `SELECT id FROM media WHERE deleted_at IS NULL ORDER BY id`,
    );
    expect(onDisk).toEqual(rows.map((r) => r.id).sort());
    expect(onDisk.length).toBeGreaterThan(5);
  });
});
