import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertProfileReady } from '../src/services/profile';
import { createReviewService } from '../src/services/review';
import { signIn, startTestApp, testDbKind, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;
const accountIdOf = async (email: string) =>
  (await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [email]))[0]!.id;

const billing = {
  firstName: ' Ann ',
  lastName: 'Lee',
  address: '1 Market St',
  city: 'San Francisco',
  province: 'CA',
  country: 'United States',
  regionCode: 'US',
  postalCode: '94105',
};

describe(`billing profile (${testDbKind})`, () => {
  it('starts unsubmitted, goes to review on update, and shows the trimmed profile', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('profile') });
    const empty = await c.get('/web/getProfile');
    expect(empty.body.data).toEqual({
      firstName: '',
      lastName: '',
      address: '',
      city: '',
      province: '',
      postalCode: '',
      country: '',
      regionCode: '',
      profileStatus: -1,
      profileStatus4Phone: 0,
      needSetPhone: true,
      vipStatus: 0,
      expireDate: null,
      refuseReason: '',
    });
    const upd = await c.post('/web/updateProfile', billing);
    expect(upd.body).toMatchObject({ retcode: 0, data: { profileStatus: 1 } });
    const after = await c.get('/web/getProfile');
    expect(after.body.data).toMatchObject({ ...billing, firstName: 'Ann', profileStatus: 1 });
    // the same profile again keeps its status; a change goes back to review
    expect((await c.post('/web/updateProfile', billing)).body.data.profileStatus).toBe(1);
  });

  it('refuses every invalid field with 100001 and changes nothing', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('invalid') });
    const cases: Record<string, unknown>[] = [
      { ...billing, firstName: '' },
      { ...billing, lastName: '   ' },
      { ...billing, address: '' },
      { ...billing, city: '' },
      { ...billing, city: 'C'.repeat(21) },
      { ...billing, province: '' },
      { ...billing, country: '' },
      { ...billing, postalCode: '' },
      { ...billing, regionCode: 'usa' },
      { ...billing, regionCode: 'XX' },
      { ...billing, regionCode: 'ZZ' },
      { ...billing, status: 2 },
    ];
    const { firstName: _f, ...noFirst } = billing;
    cases.push(noFirst);
    for (const body of cases) {
      const r = await c.post('/web/updateProfile', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.retcode).toBe(100001);
    }
    expect((await c.get('/web/getProfile')).body.data.profileStatus).toBe(-1);
    // a 20-character city and no region code are fine
    expect(
      (await c.post('/web/updateProfile', { ...billing, city: 'C'.repeat(20), regionCode: '' })).body.retcode,
    ).toBe(0);
  });

  it('shows an operator refusal with its reason, and a resubmission goes back to review', async () => {
    const email = uniqueEmail('refused');
    const c = await signIn(t.app, { email });
    await c.post('/web/updateProfile', billing);
    const reviews = createReviewService(t.db, t.app.deps.media);
    const review = async (...a: Parameters<typeof reviews.decide>) => (await reviews.decide(...a)).changed;
    const id = await accountIdOf(email);
    expect(await review(id, 'profile', 'refuse', 'The address does not match the card')).toBe(true);
    const refused = (await c.get('/web/getProfile')).body.data;
    expect(refused).toMatchObject({
      profileStatus: 100,
      refuseReason: 'The address does not match the card',
    });
    // a decision applies only to a profile under review
    expect(await review(id, 'profile', 'approve')).toBe(false);
    const again = await c.post('/web/updateProfile', { ...billing, address: '2 Market St' });
    expect(again.body.data.profileStatus).toBe(1);
    expect((await c.get('/web/getProfile')).body.data.refuseReason).toBe('');
    expect(await review(id, 'profile', 'approve')).toBe(true);
    expect((await c.get('/web/getProfile')).body.data.profileStatus).toBe(2);
    // unchanged while verified: stays verified; changed: reviewed again
    expect(
      (await c.post('/web/updateProfile', { ...billing, address: '2 Market St' })).body.data.profileStatus,
    ).toBe(2);
    expect(
      (await c.post('/web/updateProfile', { ...billing, address: '3 Market St' })).body.data.profileStatus,
    ).toBe(1);
  });

  it("keeps each account's profile to itself", async () => {
    const a = await signIn(t.app, { email: uniqueEmail('own-a') });
    const b = await signIn(t.app, { email: uniqueEmail('own-b') });
    await a.post('/web/updateProfile', billing);
    expect((await b.get('/web/getProfile')).body.data).toMatchObject({ firstName: '', profileStatus: -1 });
  });

  it('assertProfileReady refuses with 100023 {profileStatus, needSetPhone} until the profile is verified', async () => {
    const email = uniqueEmail('gate');
    const c = await signIn(t.app, { email });
    const id = await accountIdOf(email);
    await expect(assertProfileReady(t.db.q, id)).rejects.toMatchObject({
      retcode: 100023,
      data: { profileStatus: -1, needSetPhone: false },
    });
    await expect(assertProfileReady(t.db.q, id, { needPhone: true })).rejects.toMatchObject({
      retcode: 100023,
      data: { profileStatus: -1, needSetPhone: true },
    });
    await c.post('/web/updateProfile', billing);
    await expect(assertProfileReady(t.db.q, id)).rejects.toMatchObject({ data: { profileStatus: 1 } });
    await t.db.query(`UPDATE billing_profiles SET status = 2 WHERE account_id = $1`, [id]);
    await expect(assertProfileReady(t.db.q, id)).resolves.toBeUndefined();
    await expect(assertProfileReady(t.db.q, id, { needPhone: true })).rejects.toMatchObject({
      data: { profileStatus: 2, needSetPhone: true },
    });
    await t.db.query(`UPDATE accounts SET tel_code = '1', phone = '4153000001' WHERE id = $1`, [id]);
    await expect(assertProfileReady(t.db.q, id, { needPhone: true })).resolves.toBeUndefined();
    expect((await c.get('/web/getProfile')).body.data.needSetPhone).toBe(false);
  });

  it('reports VIP while it lasts', async () => {
    const email = uniqueEmail('vip');
    const c = await signIn(t.app, { email }, 'wetalk.localhost');
    const until = Date.now() + 30 * 86_400_000;
    await t.db.query(`UPDATE accounts SET vip_until = $2 WHERE email = $1 AND brand = 'wetalk'`, [
      email,
      new Date(until),
    ]);
    expect((await c.get('/web/getProfile')).body.data).toMatchObject({ vipStatus: 1, expireDate: until });
    await t.db.query(
      `UPDATE accounts SET vip_until = now() - interval '1 day' WHERE email = $1 AND brand = 'wetalk'`,
      [email],
    );
    expect((await c.get('/web/getProfile')).body.data).toMatchObject({ vipStatus: 0, expireDate: null });
  });
});
