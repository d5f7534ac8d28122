import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../src/cli/admin';
import { brandFlag, type OpenContext } from '../src/cli/context';
import { signIn, startTestApp, testDbKind, type TestApp } from './helpers';

const png = readFileSync(new URL('./fixtures/pixel.png', import.meta.url));
const jpeg = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(100, 7),
  Buffer.from([0xff, 0xd9]),
]);

let t: TestApp;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-review-'));
beforeAll(async () => {
  t = await startTestApp({ envOverrides: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The admin command on this suite's database (PGlite or PostgreSQL), as the server's socket runs it. */
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

let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;
const billing = {
  firstName: 'Ann',
  lastName: 'Lee',
  address: '1 Market St',
  city: 'San Francisco',
  province: 'CA',
  country: 'United States',
  regionCode: 'US',
  postalCode: '94105',
};

async function submitAll(email: string, host = 'localhost') {
  const c = await signIn(t.app, { email }, host);
  expect((await c.post('/web/updateProfile', billing)).body.retcode).toBe(0);
  const form = new FormData();
  form.append('platform', host.split('.')[0] === 'localhost' ? 'numa' : host.split('.')[0]!);
  form.append('idCard1', new Blob([png]), 'front.png');
  form.append('idCard2', new Blob([jpeg]), 'back.jpg');
  form.append('idHold1', new Blob([png]), 'hold.png');
  const res = await t.app.inject({
    method: 'POST',
    url: '/web/updateKYCInfo',
    headers: { host, 'auth-token': c.token! },
    payload: form,
  });
  expect(res.json().retcode).toBe(0);
  return c;
}

describe(`npm run admin -- review (${testDbKind})`, () => {
  it('lists what waits, shows an account with its images, approves and refuses; the user sees it on refresh', async () => {
    const email = uniqueEmail('review');
    const c = await submitAll(email);
    const other = uniqueEmail('other');
    await submitAll(other, 'wephone.localhost');

    const list = await admin('review', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/billing profiles under review \(\d+\)/);
    const profileSection = list.out.split('identity documents under review')[0]!;
    expect(profileSection).toContain(email);
    expect(profileSection).toContain(other);
    expect(list.out.split('identity documents under review')[1]).toContain(email);
    // one brand only
    const numaOnly = await admin('review', 'list', '--brand', 'numa');
    expect(numaOnly.out).toContain(email);
    expect(numaOnly.out).not.toContain(other);

    const folder = path.join(dataDir, 'export');
    const shown = await admin('review', 'show', email, folder);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain('billing profile: under review');
    expect(shown.out).toContain('Ann Lee');
    expect(shown.out).toContain('identity documents: under review');
    const files = shown.out
      .split('\n')
      .filter((l) => l.includes(folder))
      .map((l) => l.trim().split(/\s+/)[1]!);
    expect(files).toHaveLength(3);
    expect(files.map((f) => path.basename(f).replace(/^account-\d+-/, ''))).toEqual([
      'idCard1.png',
      'idCard2.jpg',
      'idHold1.png',
    ]);
    expect(Buffer.compare(readFileSync(files[0]!), png)).toBe(0);
    expect(Buffer.compare(readFileSync(files[1]!), jpeg)).toBe(0);
    // without a folder nothing is written
    expect((await admin('review', 'show', email)).out).toContain('3 image(s) on file');

    const refused = await admin('review', 'refuse', email, 'kyc', '--reason', 'The ID photo is blurred');
    expect(refused.code, refused.err).toBe(0);
    expect((await c.get('/web/getKYCInfo')).body.data).toMatchObject({
      status: 100,
      refuseReason: 'The ID photo is blurred',
    });
    const approved = await admin('review', 'approve', email, 'profile');
    expect(approved.code).toBe(0);
    expect((await c.get('/web/getProfile')).body.data).toMatchObject({ profileStatus: 2, refuseReason: '' });

    // no longer waiting
    const after = await admin('review', 'list', '--brand', 'numa');
    expect(after.out).not.toContain(email);
    expect((await admin('review', 'show', email)).out).toContain('refused   The ID photo is blurred');
  });

  it('refuses decisions that do not apply, without changing anything', async () => {
    const email = uniqueEmail('nothing');
    const c = await signIn(t.app, { email });
    const none = await admin('review', 'approve', email, 'kyc');
    expect(none.code).toBe(1);
    expect(none.err).toContain('has no kyc under review (it is not submitted)');
    await c.post('/web/updateProfile', billing);
    expect((await admin('review', 'refuse', email, 'profile')).err).toContain('--reason');
    expect((await admin('review', 'refuse', email, 'profile', '--reason', '   ')).code).toBe(1);
    expect((await admin('review', 'refuse', email, 'profile', '--reason', 'x'.repeat(501))).code).toBe(1);
    expect((await admin('review', 'approve', email, 'everything')).err).toContain(
      'profile (billing profile) or kyc',
    );
    expect((await admin('review', 'approve', 'nobody@example.com', 'profile')).err).toContain(
      'No numa account matches',
    );
    expect((await admin('review', 'approve', email, 'profile', '--brand', 'wephone')).code).toBe(1);
    expect((await c.get('/web/getProfile')).body.data.profileStatus).toBe(1);
    expect((await admin('review', 'approve', email, 'profile')).code).toBe(0);
    const twice = await admin('review', 'approve', email, 'profile');
    expect(twice.err).toContain('(it is verified)');
    expect(existsSync(path.join(dataDir, 'export-none'))).toBe(false);
  });

  it('is listed by help', async () => {
    const help = await admin('help');
    for (const name of ['review list', 'review show', 'review approve', 'review refuse'])
      expect(help.out).toContain(name);
  });
});
