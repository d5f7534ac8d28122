import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApp, testDbKind, type TestApp } from './helpers';

const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

async function accountIdOf(email: string) {
  const [row] = await t.db.query<{ id: number }>('SELECT id FROM accounts WHERE email = $1', [email]);
  return row!.id;
}

describe(`media store (${testDbKind})`, () => {
  it('keeps a file checked by content and serves it to its owner only', async () => {
    const ownerEmail = `media.${Date.now()}@example.com`;
    const owner = await signIn(t.app, { email: ownerEmail });
    const stranger = await signIn(t.app, { email: `stranger.${Date.now()}@example.com` });
    const saved = await t.app.deps.media.save({ accountId: await accountIdOf(ownerEmail), kind: 'mms', bytes: png, allowed: ['image/png'], maxBytes: 1000, fileName: 'a.png' });
    expect(saved).toMatchObject({ mime: 'image/png', size: png.length, url: `/media/${saved.id}` });

    const mine = await t.app.inject({ url: saved.url, headers: { 'auth-token': owner.token! } });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(mine.rawPayload, png)).toBe(0);

    // the HttpOnly cookie set at sign-in works for <img src>
    const byCookie = await t.app.inject({ url: saved.url, headers: { cookie: `numa_media=${owner.token}` } });
    expect(byCookie.statusCode).toBe(200);

    const theirs = await t.app.inject({ url: saved.url, headers: { 'auth-token': stranger.token! } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().retcode).toBe(100002);
    const anon = await t.app.inject({ url: saved.url });
    expect(anon.statusCode).toBe(401);
  });

  it('refuses a file whose bytes are not an allowed type, whatever its name, and oversize files', async () => {
    const email = `media2.${Date.now()}@example.com`;
    await signIn(t.app, { email });
    const accountId = await accountIdOf(email);
    const fake = Buffer.from('<html><script>alert(1)</script></html>');
    await expect(t.app.deps.media.save({ accountId, kind: 'kyc', bytes: fake, allowed: ['image/png', 'image/jpeg'], maxBytes: 10_000, fileName: 'id.png' })).rejects.toMatchObject({ retcode: 300038 });
    await expect(t.app.deps.media.save({ accountId, kind: 'kyc', bytes: png, allowed: ['image/png'], maxBytes: 10 })).rejects.toMatchObject({ retcode: 100005 });
  });

  it('sets the media cookie at login and clears it at logout', async () => {
    const c = await signIn(t.app, { email: `cookie.${Date.now()}@example.com` });
    const out = await c.post('/web/logout', {});
    expect(String(out.headers['set-cookie'])).toContain('numa_media=; Path=/media; HttpOnly');
  });
});
