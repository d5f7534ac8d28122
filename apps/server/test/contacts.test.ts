import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApp, testDbKind, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

let seq = 0;
const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${seq++}@example.com`;

const ann = {
  name: 'Ann Lee',
  phoneList: [{ phone: '+14155550101', telCode: '1', tag: 'Mobile' }],
  email: 'ann@example.com',
  companyName: 'Acme',
  note: 'met at the fair',
};

describe(`cloud address book (${testDbKind})`, () => {
  it('creates, lists, updates and deletes contacts', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('book') });
    const empty = await c.get('/web/getCloudAddressBook', { pageSize: '500' });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({ addressBookList: [], nextStartTime: null });

    const created = await c.post('/web/createOrUpdateCloudAddressBook', { addressBook: JSON.stringify(ann) });
    expect(created.body.retcode).toBe(0);
    const { id, date } = created.body.data;
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const list = await c.get('/web/getCloudAddressBook', { pageSize: '500' });
    expect(list.body.data.addressBookList).toHaveLength(1);
    const entry = list.body.data.addressBookList[0];
    expect(entry).toMatchObject({ id, date, localId: '' });
    // stored as the contract's normal form: '+' dropped, defaults filled
    expect(JSON.parse(entry.addressBook)).toEqual({ ...ann, phoneList: [{ phone: '14155550101', telCode: '1', tag: 'Mobile' }] });

    const edited = await c.post('/web/createOrUpdateCloudAddressBook', {
      id,
      addressBook: JSON.stringify({ name: '李雷', phoneList: [{ phone: '8613800138000', telCode: '86' }, { phone: '14155550102', telCode: '1', tag: 'Work' }] }),
    });
    expect(edited.body.retcode).toBe(0);
    expect(edited.body.data.id).toBe(id);
    expect(edited.body.data.date).toBeGreaterThan(date);
    const after = await c.get('/web/getCloudAddressBook', {});
    const book = JSON.parse(after.body.data.addressBookList[0].addressBook);
    expect(book).toEqual({
      name: '李雷',
      phoneList: [
        { phone: '8613800138000', telCode: '86', tag: 'Other' },
        { phone: '14155550102', telCode: '1', tag: 'Work' },
      ],
      email: '',
      companyName: '',
      note: '',
    });

    const del = await c.post('/web/delCloudAddressBook', { ids: `${id}, ${id}` });
    expect(del.body).toMatchObject({ retcode: 0, data: { deleted: 1 } });
    expect((await c.get('/web/getCloudAddressBook', {})).body.data.addressBookList).toEqual([]);
    // deleting again: unknown ids are skipped
    expect((await c.post('/web/delCloudAddressBook', { ids: id })).body.data.deleted).toBe(0);
  });

  it("refuses contacts that break the client's rules", async () => {
    const c = await signIn(t.app, { email: uniqueEmail('rules') });
    const bad = [
      { ...ann, name: '' },
      { ...ann, name: '   ' },
      { ...ann, name: 'N'.repeat(20) },
      { ...ann, phoneList: [] },
      { ...ann, phoneList: Array.from({ length: 6 }, (_, i) => ({ phone: `1415555010${i}`, telCode: '1' })) },
      { ...ann, phoneList: [{ phone: '+1 415 555', telCode: '1' }] },
      { ...ann, phoneList: [{ phone: '4155550101', telCode: '44' }] },
      { ...ann, phoneList: [{ phone: '14155550101', telCode: '' }] },
      { ...ann, phoneList: [{ phone: '14155550101', telCode: '1', tag: 'Fax' }] },
      { ...ann, email: 'ann@example' },
      { ...ann, companyName: 'C'.repeat(21) },
      { ...ann, note: 'N'.repeat(101) },
      { ...ann, extra: 1 },
    ];
    for (const book of bad) {
      const res = await c.post('/web/createOrUpdateCloudAddressBook', { addressBook: JSON.stringify(book) });
      expect(res.status, JSON.stringify(book)).toBe(400);
      expect(res.body.retcode).toBe(100001);
    }
    const notJson = await c.post('/web/createOrUpdateCloudAddressBook', { addressBook: '{name:' });
    expect(notJson.body.retcode).toBe(100001);
    const asObject = await c.post('/web/createOrUpdateCloudAddressBook', { addressBook: ann });
    expect(asObject.body.retcode).toBe(100001);
    // limits that pass: a 19-character name, 5 phones, 20 / 100 characters
    const ok = await c.post('/web/createOrUpdateCloudAddressBook', {
      addressBook: JSON.stringify({
        ...ann,
        name: 'N'.repeat(19),
        phoneList: Array.from({ length: 5 }, (_, i) => ({ phone: `1415555010${i}`, telCode: '1' })),
        companyName: 'C'.repeat(20),
        note: 'N'.repeat(100),
      }),
    });
    expect(ok.body.retcode).toBe(0);
    expect((await c.post('/web/delCloudAddressBook', { ids: '' })).body.retcode).toBe(100001);
    expect((await c.post('/web/delCloudAddressBook', { ids: 'a b' })).body.retcode).toBe(100001);
    expect((await c.get('/web/getCloudAddressBook', { pageSize: '501' })).body.retcode).toBe(100001);
    expect((await c.get('/web/getCloudAddressBook', { since: 'yesterday' })).body.retcode).toBe(100001);
    expect((await c.get('/web/getCloudAddressBook', { owner: '1' })).body.retcode).toBe(100001);
  });

  it("never shows or changes another account's contacts", async () => {
    const alice = await signIn(t.app, { email: uniqueEmail('alice') });
    const bob = await signIn(t.app, { email: uniqueEmail('bob') });
    const mine = (await alice.post('/web/createOrUpdateCloudAddressBook', { addressBook: JSON.stringify(ann) })).body.data;

    expect((await bob.get('/web/getCloudAddressBook', {})).body.data.addressBookList).toEqual([]);
    const overwrite = await bob.post('/web/createOrUpdateCloudAddressBook', {
      id: mine.id,
      addressBook: JSON.stringify({ ...ann, name: 'Hijacked' }),
    });
    expect(overwrite.status).toBe(404);
    expect(overwrite.body.retcode).toBe(100002);
    // the same answer as for an id that never existed
    const unknown = await bob.post('/web/createOrUpdateCloudAddressBook', { id: 'doesNotExist00000', addressBook: JSON.stringify(ann) });
    expect(unknown.body).toMatchObject({ retcode: 100002, data: null });
    expect((await bob.post('/web/delCloudAddressBook', { ids: mine.id })).body.data.deleted).toBe(0);

    const still = (await alice.get('/web/getCloudAddressBook', {})).body.data.addressBookList;
    expect(still).toHaveLength(1);
    expect(JSON.parse(still[0].addressBook).name).toBe('Ann Lee');
    expect(still[0].date).toBe(mine.date);
    // and no session, no book
    const anon = await t.app.inject({ url: '/web/getCloudAddressBook', headers: { host: 'localhost' } });
    expect(anon.statusCode).toBe(401);
  });

  it('pages newest change first by startTime, and since gives only later changes', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('pages') });
    const ids: string[] = [];
    const dates: number[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await c.post('/web/createOrUpdateCloudAddressBook', {
        addressBook: JSON.stringify({ name: `Person ${i}`, phoneList: [{ phone: `1415555020${i}`, telCode: '1' }] }),
      });
      ids.push(r.body.data.id);
      dates.push(r.body.data.date);
    }
    // distinct, increasing change dates even within one millisecond
    expect(new Set(dates).size).toBe(7);
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);

    const seen: string[] = [];
    let startTime: number | null | undefined;
    let pages = 0;
    do {
      const r = await c.get('/web/getCloudAddressBook', { pageSize: '3', ...(startTime ? { startTime: String(startTime) } : {}) });
      expect(r.body.retcode).toBe(0);
      seen.push(...r.body.data.addressBookList.map((e: { id: string }) => e.id));
      startTime = r.body.data.nextStartTime;
      pages++;
    } while (startTime && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const later = await c.get('/web/getCloudAddressBook', { since: String(dates[4]) });
    expect(later.body.data.addressBookList.map((e: { id: string }) => e.id)).toEqual([ids[6], ids[5]]);
    // an exactly full last page says so with null
    const exact = await c.get('/web/getCloudAddressBook', { pageSize: '7' });
    expect(exact.body.data.nextStartTime).toBeNull();
  });

  it('keeps dates distinct when one account saves many contacts at once', async () => {
    const c = await signIn(t.app, { email: uniqueEmail('burst') });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        c.post('/web/createOrUpdateCloudAddressBook', {
          addressBook: JSON.stringify({ name: `Burst ${i}`, phoneList: [{ phone: `1415555030${i % 10}`, telCode: '1' }] }),
        }),
      ),
    );
    expect(results.every((r) => r.body.retcode === 0)).toBe(true);
    expect(new Set(results.map((r) => r.body.data.date)).size).toBe(12);
    const list = await c.get('/web/getCloudAddressBook', {});
    expect(list.body.data.addressBookList).toHaveLength(12);
  });
});
