import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ManualClock } from '../src/lib/clock';
import { credit } from './chat-support';
import { signIn, startTestApp, type TestApp } from './helpers';

let t: TestApp;
const clock = new ManualClock(Date.parse('2026-01-31T10:00:00Z'));
let seq = 0;
let anyone: Awaited<ReturnType<typeof renter>>['c'];

/** A signed-in account with a verified billing profile and phone (what renting needs), and a balance. */
async function renter(balance = 0, opts: { profile?: boolean; phone?: boolean } = {}) {
  const n = seq++;
  const email = `num${process.pid}x${n}@example.com`;
  const c = await signIn(t.app, { email });
  const [{ id }] = await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [email]);
  if (opts.phone !== false)
    await t.db.query(`UPDATE accounts SET tel_code = '1', phone = $2 WHERE id = $1`, [
      id,
      `20255${String(50000 + n).slice(-5)}`,
    ]);
  if (opts.profile !== false)
    await t.db.query(
      `INSERT INTO billing_profiles (account_id, first_name, last_name, address, city, province, postal_code, country, status)
       VALUES ($1, 'Ada', 'Lovelace', '1 Main St', 'Austin', 'TX', '73301', 'US', 2)`,
      [id],
    );
  if (balance) await t.db.tx((tx) => credit(tx, id, balance));
  return { c, id };
}

/** The ledger invariant of an account: its bills sum to its balance. */
async function ledgerOf(id: number) {
  const [r] = await t.db.query<{ sum: number; balance: number; n: number }>(
    `SELECT COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = $1), 0)::bigint AS sum,
            (SELECT balance FROM accounts WHERE id = $1) AS balance,
            (SELECT count(*) FROM ledger WHERE account_id = $1 AND type = 5)::int AS n`,
    [id],
  );
  expect(Number(r!.sum)).toBe(Number(r!.balance));
  return { balance: Number(r!.balance) / 10_000, rentBills: r!.n };
}

async function planId(code: string, type: string, name: string, period: string) {
  const res = await anyone.get('/web/getPlanList', { code, type });
  const p = (res.body.data.planList as { planId: number; planName: string; planRentPeriod: string }[]).find(
    (x) => x.planName === name && x.planRentPeriod === period,
  );
  return p!.planId;
}

beforeAll(async () => {
  t = await startTestApp({ clock });
  anyone = (await renter()).c;
});
afterAll(async () => {
  await t.close();
});

describe('numbers: catalogue', () => {
  it('lists areas, free valid numbers of an area, and plans priced from the rates table', async () => {
    const c = anyone;
    const areas = (await c.get('/web/getAreaCodeV2')).body.data;
    expect(areas.defaultCode).toBe('US');
    expect(areas.countries.map((x: { code: string }) => x.code)).toEqual([
      'US',
      'CA',
      'GB',
      'AU',
      'TollFree',
    ]);
    const us = areas.countries[0].typeList[0];
    expect(us.type).toBe('local');
    expect(us.provinces.find((p: { name: string }) => p.name === 'California').areaCodes).toContain('415');

    const local = (
      await c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'US',
        type: 'local',
        telCode: '1',
        areaCode: '415',
      })
    ).body.data;
    expect(local.numbers).toHaveLength(10);
    for (const n of local.numbers) {
      const p = parsePhoneNumberFromString(`+1${n}`)!;
      expect(p.isValid() && p.country === 'US' && n.startsWith('415')).toBe(true);
    }
    const gb = (await c.get('/web/getVirtualPhoneByAreaCode', { code: 'GB', type: 'mobile', telCode: '44' }))
      .body.data;
    expect(parsePhoneNumberFromString(`+44${gb.numbers[0]}`)!.getType()).toBe('MOBILE');
    const tf = (
      await c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'TollFree',
        type: 'tollFree',
        telCode: '1',
        areaCode: '800',
      })
    ).body.data;
    expect(parsePhoneNumberFromString(`+1${tf.numbers[0]}`)!.getType()).toBe('TOLL_FREE');
    // an area the supply does not serve: an empty list, not an error
    const none = await c.get('/web/getVirtualPhoneByAreaCode', {
      code: 'US',
      type: 'local',
      telCode: '1',
      areaCode: '999',
    });
    expect(none.body).toMatchObject({ retcode: 0, data: { numbers: [] } });

    const plans = (await c.get('/web/getPlanList', { code: 'US', type: 'local' })).body.data.planList;
    expect(plans).toHaveLength(12);
    const payg = plans.filter((p: { planName: string }) => p.planName === 'Pay As You Go');
    // spec 001 §9's sample: US 4.09 a month, 11.07 a quarter, 37.08 a year
    expect(payg.map((p: { planRent: number }) => p.planRent)).toEqual([4.09, 11.07, 37.08]);
    expect(payg[2]).toMatchObject({
      planRentPeriod: 'year',
      monthRent: 3.09,
      discount: 0.24,
      activationFee: 0,
      nextPaymentDate: '2027-01-31',
    });
    expect(payg[0].nextPaymentDate).toBe('2026-02-28');
    const zh = await c.call('GET', '/web/getPlanList', { code: 'GB', type: 'mobile', languagecode: 'zh_cn' });
    expect(zh.body.data.planList[0].planName).toBe('无限套餐');
  });
});

describe('numbers: subscribe', () => {
  it('refuses without profile or phone (100023), an unknown plan, a number not offered, a short balance — writing nothing', async () => {
    const plan = await planId('US', 'local', 'Pay As You Go', 'month');
    const free = async (c: Awaited<ReturnType<typeof renter>>['c']) =>
      (
        await c.get('/web/getVirtualPhoneByAreaCode', {
          code: 'US',
          type: 'local',
          telCode: '1',
          areaCode: '212',
        })
      ).body.data.numbers[0];

    const noProfile = await renter(10, { profile: false, phone: false });
    const phone = await free(noProfile.c);
    const r1 = await noProfile.c.post('/web/subVirtualPhone', {
      planId: plan,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(r1.status).toBe(400);
    expect(r1.body).toMatchObject({ retcode: 100023, data: { profileStatus: -1, needSetPhone: true } });

    const u = await renter(1);
    const r2 = await u.c.post('/web/subVirtualPhone', {
      planId: 99_999,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(r2.body.retcode).toBe(100001);
    const gbPlan = await planId('GB', 'mobile', 'Pay As You Go', 'month');
    const r3 = await u.c.post('/web/subVirtualPhone', {
      planId: gbPlan,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(r3.body.retcode).toBe(100001);
    const r4 = await u.c.post('/web/subVirtualPhone', {
      planId: plan,
      telCode: '1',
      phone: '2125550199',
      code: 'US',
      type: 'local',
    });
    expect(r4.body).toMatchObject({ retcode: 500000, retmsg: 'No number available for this area' });
    const r5 = await u.c.post('/web/subVirtualPhone', {
      planId: plan,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(r5.body.retcode).toBe(400001);
    const r6 = await u.c.post('/web/subVirtualPhone', {
      planId: plan,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
      extra: 1,
    });
    expect(r6.body.retcode).toBe(100001);
    expect(await ledgerOf(u.id)).toEqual({ balance: 1, rentBills: 0 });
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data.virtualPhones).toEqual([]);
  });

  it('concurrent subscribes of one number: one winner, one charge; a double submit answers once; the number is the winner’s', async () => {
    const plan = await planId('US', 'local', 'Pay As You Go', 'month');
    const users = await Promise.all([renter(10), renter(10), renter(10)]);
    const phone = (
      await users[0].c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'US',
        type: 'local',
        telCode: '1',
        areaCode: '512',
      })
    ).body.data.numbers[0] as string;
    const body = { planId: plan, telCode: '1', phone, code: 'US', type: 'local' };
    // each account submits twice at once (a double click)
    const results = await Promise.all(
      users.flatMap((u) => [u.c.post('/web/subVirtualPhone', body), u.c.post('/web/subVirtualPhone', body)]),
    );
    const winners = users.filter(
      (_, i) => results[2 * i]!.body.retcode === 0 || results[2 * i + 1]!.body.retcode === 0,
    );
    expect(winners).toHaveLength(1);
    const w = users.indexOf(winners[0]!);
    expect(results[2 * w]!.body.data).toEqual(results[2 * w + 1]!.body.data);
    expect(results[2 * w]!.body.data.subHint).toBe(
      `+1${phone} is yours. It renews on 2026-02-28 for 4.0900 Coins.`,
    );
    for (const [i, u] of users.entries()) {
      const l = await ledgerOf(u.id);
      if (i === w) expect(l).toEqual({ balance: 5.91, rentBills: 1 });
      else {
        expect(l).toEqual({ balance: 10, rentBills: 0 });
        expect(results[2 * i]!.body).toMatchObject({
          retcode: 500000,
          retmsg: 'No number available for this area',
        });
      }
    }
    const list = (await winners[0]!.c.get('/web/getVirtualPhoneList')).body.data;
    expect(list.virtualPhones).toEqual([
      { telCode: '1', phone, paymentDate: '2026-02-28', monthRent: 4.09, planId: plan },
    ]);
    // it is no longer offered, and the history has the subscription with its charge
    const again = (
      await users[0].c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'US',
        type: 'local',
        telCode: '1',
        areaCode: '512',
      })
    ).body.data.numbers;
    expect(again).not.toContain(phone);
    const hist = (
      await winners[0]!.c.get('/web/getSubscriptionList', { date: '2026-01', pageNo: '1', pageSize: '200' })
    ).body.data;
    expect(hist).toMatchObject({
      totalRows: 1,
      list: [{ number: `+1${phone}`, type: 1, charge: -4.09, planId: plan, resDate: '' }],
    });
    const [bill] = await t.db.query(`SELECT options FROM ledger WHERE account_id = $1 AND type = 5`, [
      winners[0]!.id,
    ]);
    expect(bill.options).toMatchObject({ number: `1${phone}`, planId: plan, type: 1 });
    // another account can neither unsubscribe nor see it
    const other = users[(w + 1) % 3]!;
    const un = await other.c.post('/web/unSubVirtualPhone', { telCode: '1', phone });
    expect(un.body.retcode).toBe(100003);
    expect(
      (await other.c.get('/web/getSubscriptionList', { date: '2026-01', pageNo: '1', pageSize: '200' })).body
        .data.totalRows,
    ).toBe(0);
  });
});
