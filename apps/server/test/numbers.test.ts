import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parsePhone } from '@numa/contract';
import { buildApp } from '../src/app';
import { runAdmin } from '../src/cli/admin';
import type { OpenContext } from '../src/cli/context';
import { ManualClock } from '../src/lib/clock';
import { SimulatedSpeechToText } from '../src/providers/stt/simulator';
import { credit } from './chat-support';
import { signIn, startTestApp, testEnv, type TestApp } from './helpers';

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
  t = await startTestApp({ clock, stt: new SimulatedSpeechToText() });
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
    // each state and province has its ISO 3166-2 code, and its name in the request's language (issue 20)
    type P = { code: string; name: string; areaCodes: string[] };
    expect(us.provinces.find((p: P) => p.code === 'US-AZ').name).toBe('Arizona');
    const zhAreas = (await c.call('GET', '/web/getAreaCodeV2', { languagecode: 'zh_cn' })).body.data;
    for (const country of zhAreas.countries.slice(0, 2)) {
      const ps: P[] = country.typeList[0].provinces;
      expect(ps.length).toBeGreaterThan(5);
      for (const p of ps) {
        expect(p.code).toMatch(/^(US|CA)-[A-Z]{2}$/);
        expect(p.name).toMatch(/^[\u4e00-\u9fff]+$/);
      }
    }
    expect(zhAreas.countries[0].typeList[0].provinces.find((p: P) => p.code === 'US-AZ').name).toBe(
      '亚利桑那州',
    );

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
      const p = parsePhone(`1${n}`)!;
      expect(p.isValid() && p.country === 'US' && n.startsWith('415')).toBe(true);
    }
    const gb = (await c.get('/web/getVirtualPhoneByAreaCode', { code: 'GB', type: 'mobile', telCode: '44' }))
      .body.data;
    expect(parsePhone(`44${gb.numbers[0]}`)!.getType()).toBe('MOBILE');
    const tf = (
      await c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'TollFree',
        type: 'tollFree',
        telCode: '1',
        areaCode: '800',
      })
    ).body.data;
    expect(parsePhone(`1${tf.numbers[0]}`)!.getType()).toBe('TOLL_FREE');
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
      { telCode: '1', phone, paymentDate: '2026-02-28', monthRent: 4.09, planId: plan, autoRenew: true },
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

describe('numbers: renewals and plan changes (moving the app clock)', () => {
  const at = (iso: string) => clock.set(Date.parse(iso));
  const mine = async (c: Awaited<ReturnType<typeof renter>>['c']) =>
    (await c.get('/web/getVirtualPhoneList')).body.data.virtualPhones;
  async function rentOne(u: Awaited<ReturnType<typeof renter>>, areaCode: string, plan: number) {
    const phone = (
      await u.c.get('/web/getVirtualPhoneByAreaCode', { code: 'US', type: 'local', telCode: '1', areaCode })
    ).body.data.numbers[0];
    const r = await u.c.post('/web/subVirtualPhone', {
      planId: plan,
      telCode: '1',
      phone,
      code: 'US',
      type: 'local',
    });
    expect(r.body.retcode).toBe(0);
    return phone as string;
  }

  it('renews once (two runs at once on two servers); unsubscribed numbers go at their date; short → notice → grace → reclaim → re-subscribe once', async () => {
    at('2026-01-31T12:00:00Z');
    const payg = await planId('US', 'local', 'Pay As You Go', 'month');
    const u = await renter(10);
    const v = await renter(10);
    const uPhone = await rentOne(u, '303', payg);
    const vPhone = await rentOne(v, '720', payg);
    expect((await v.c.post('/web/unSubVirtualPhone', { telCode: '1', phone: vPhone })).body.retcode).toBe(0);
    // until then the number shows as not renewing (issue 20)
    expect(await mine(v.c)).toMatchObject([{ phone: vPhone, autoRenew: false }]);

    at('2026-02-28T00:30:00Z');
    // a second server on the same database: both run the renewals at once
    const second = await buildApp({ env: testEnv(), db: t.db, mail: t.mail, clock });
    await second.ready();
    try {
      await Promise.all([t.app.deps.subscriptions.runRenewals(), second.deps.subscriptions.runRenewals()]);
    } finally {
      await second.close();
    }
    expect(await ledgerOf(u.id)).toEqual({ balance: 1.82, rentBills: 2 });
    expect(await mine(u.c)).toEqual([
      {
        telCode: '1',
        phone: uPhone,
        paymentDate: '2026-03-28',
        monthRent: 4.09,
        planId: payg,
        autoRenew: true,
      },
    ]);
    const feb = (await u.c.get('/web/getSubscriptionList', { date: '2026-02' })).body.data;
    expect(feb.list).toMatchObject([{ type: 2, charge: -4.09 }]);
    // the unsubscribed number is released at its date, with nothing charged
    expect(await mine(v.c)).toEqual([]);
    expect(await ledgerOf(v.id)).toEqual({ balance: 5.91, rentBills: 1 });

    // short: told on the account's sockets and by e-mail, kept through the grace period (7 days), retried daily
    const sentBefore = t.mail.sent.length;
    const told = vi.spyOn(t.app.deps.realtime, 'emitRenewalFailed');
    at('2026-03-28T00:30:00Z');
    await t.app.deps.subscriptions.runRenewals();
    const toldU = () => told.mock.calls.filter(([id]) => id === u.id);
    expect(toldU()).toEqual([[u.id, { number: `1${uPhone}`, reclaimOn: '2026-04-04' }]]);
    const [uRow] = await t.db.query<{ email: string }>(`SELECT email FROM accounts WHERE id = $1`, [u.id]);
    const notice = t.mail.sent.slice(sentBefore).filter((m) => m.to === uRow!.email);
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain(`+1${uPhone}`);
    expect(notice[0]!.text).toContain('2026-04-04');
    at('2026-04-03T00:30:00Z');
    await t.app.deps.subscriptions.runRenewals();
    expect(await mine(u.c)).toHaveLength(1);
    expect(t.mail.sent.slice(sentBefore).filter((m) => m.to === uRow!.email)).toHaveLength(1);
    expect(toldU()).toHaveLength(1);
    told.mockRestore();
    at('2026-04-04T00:30:00Z');
    await t.app.deps.subscriptions.runRenewals();
    expect(await mine(u.c)).toEqual([]);
    expect(await ledgerOf(u.id)).toEqual({ balance: 1.82, rentBills: 2 });
    const apr = (await u.c.get('/web/getSubscriptionList', { date: '2026-04' })).body.data;
    expect(apr.list).toMatchObject([
      { type: 100, number: `+1${uPhone}`, resDate: '2026-05-04', planId: payg, charge: 0 },
    ]);
    const entry = apr.list[0];

    // re-subscribe: not by another account, not while short, then once
    expect(
      (await v.c.post('/web/reSubVirtualPhone', { historyId: entry.historyId, date: entry.date })).body
        .retcode,
    ).toBe(300033);
    expect(
      (await u.c.post('/web/reSubVirtualPhone', { historyId: entry.historyId, date: entry.date })).body
        .retcode,
    ).toBe(400001);
    await t.db.tx((tx) => credit(tx, u.id, 10));
    const [a, b] = await Promise.all([
      u.c.post('/web/reSubVirtualPhone', { historyId: entry.historyId, date: entry.date }),
      u.c.post('/web/reSubVirtualPhone', { historyId: entry.historyId, date: entry.date }),
    ]);
    expect([a.body.retcode, b.body.retcode].sort()).toEqual([0, 300033]);
    expect(await mine(u.c)).toEqual([
      {
        telCode: '1',
        phone: uPhone,
        paymentDate: '2026-05-04',
        monthRent: 4.09,
        planId: payg,
        autoRenew: true,
      },
    ]);
    expect(await ledgerOf(u.id)).toEqual({ balance: 7.73, rentBills: 3 });
    expect(
      (
        (await u.c.get('/web/getSubscriptionList', { date: '2026-04' })).body.data.list as {
          type: number;
          resDate: string;
        }[]
      ).map((e) => [e.type, e.resDate]),
    ).toEqual([
      [7, ''],
      [100, ''],
    ]);
  });

  it('plan change: immediate with the prorated amount, next cycle at the renewal; not on another account’s number', async () => {
    at('2026-05-01T10:00:00Z');
    const payg = await planId('US', 'local', 'Pay As You Go', 'month');
    const unlimited = await planId('US', 'local', 'Unlimited', 'month');
    const yearly = await planId('US', 'local', 'Pay As You Go', 'year');
    const u = await renter(100);
    const other = await renter(100);
    const phone = await rentOne(u, '206', payg);
    const full = `1${phone}`;

    at('2026-05-11T10:00:00Z');
    const pre = (await u.c.get('/web/preChangePlan', { virtualNumber: full, planId: String(unlimited) })).body
      .data.changeList;
    // 21 of the period's 31 days are left: 4.09 × 21 / 31 = 2.7706 off the new plan's 12.09
    expect(pre).toMatchObject([
      { type: 1, planId: unlimited, payAmount: 9.3194, planName: 'Unlimited' },
      { type: 2, planId: unlimited, payAmount: 0 },
    ]);
    expect(pre[0].rule).toContain('21 of 31 days left, worth 2.7706 Coins');
    const now = await u.c.get('/web/changePlan', {
      virtualNumber: full,
      planId: String(unlimited),
      type: '1',
    });
    expect(now.body.data.successHint).toBe('Your number is now on Unlimited (Monthly).');
    expect(await ledgerOf(u.id)).toEqual({ balance: 86.5906, rentBills: 2 });
    expect(await mine(u.c)).toEqual([
      {
        telCode: '1',
        phone,
        paymentDate: '2026-06-11',
        monthRent: 12.09,
        planId: unlimited,
        autoRenew: true,
      },
    ]);

    const next = await u.c.get('/web/changePlan', { virtualNumber: full, planId: String(yearly), type: '2' });
    expect(next.body.data.successHint).toBe('Your number moves to Pay As You Go (Yearly) on 2026-06-11.');
    expect((await u.c.get('/web/getManagePlanList', { virtualNumber: full })).body.data).toMatchObject({
      currentPlanId: unlimited,
      pendingPlanId: yearly,
      pendingEffectiveDate: '2026-06-11',
      profileStatus: 2,
      needSetPhone: false,
    });
    expect(await ledgerOf(u.id)).toEqual({ balance: 86.5906, rentBills: 2 });
    at('2026-06-11T01:00:00Z');
    await t.app.deps.subscriptions.runRenewals();
    expect(await mine(u.c)).toEqual([
      { telCode: '1', phone, paymentDate: '2027-06-11', monthRent: 3.09, planId: yearly, autoRenew: true },
    ]);
    expect(await ledgerOf(u.id)).toEqual({ balance: 49.5106, rentBills: 3 });

    // the same plan, another country's plan, another account's number
    expect(
      (await u.c.get('/web/preChangePlan', { virtualNumber: full, planId: String(yearly) })).body.retcode,
    ).toBe(100001);
    const gb = await planId('GB', 'mobile', 'Unlimited', 'month');
    expect(
      (await u.c.get('/web/preChangePlan', { virtualNumber: full, planId: String(gb) })).body.retcode,
    ).toBe(100001);
    for (const call of [
      other.c.get('/web/preChangePlan', { virtualNumber: full, planId: String(payg) }),
      other.c.get('/web/changePlan', { virtualNumber: full, planId: String(payg), type: '1' }),
      other.c.get('/web/getManagePlanList', { virtualNumber: full }),
    ])
      expect((await call).body.retcode).toBe(100003);
    expect(await ledgerOf(other.id)).toEqual({ balance: 100, rentBills: 0 });
  });

  /** The number's plan-change history entries, oldest first, each with its bill (or none). */
  async function changes(accountId: number, full: string) {
    return t.db.query<{ charge: number; bill: number | null; billCharge: number | null; planId: number }>(
      `SELECT h.charge::bigint AS charge, h.ledger_id AS bill, l.charge::bigint AS "billCharge", h.plan_id AS "planId"
         FROM rental_history h LEFT JOIN ledger l ON l.id = h.ledger_id
        WHERE h.account_id = $1 AND h.full_number = $2 AND h.type = 3 ORDER BY h.id`,
      [accountId, full],
    );
  }

  it('plan changes the same day: each change that costs is billed once, with its own bill, and the history says what the ledger did', async () => {
    at('2026-07-01T10:00:00Z');
    const payg = await planId('US', 'local', 'Pay As You Go', 'month');
    const unlimited = await planId('US', 'local', 'Unlimited', 'month');
    const u = await renter(100);
    const phone = await rentOne(u, '512', payg);
    const full = `1${phone}`;
    const change = (plan: number) =>
      u.c.get('/web/changePlan', { virtualNumber: full, planId: String(plan), type: '1' });

    // up (12.09 less the unused 4.09: 8.00), down (the unused 12.09 pays for it: free), up again (8.00)
    at('2026-07-01T11:00:00Z');
    for (const plan of [unlimited, payg, unlimited]) expect((await change(plan)).body.retcode).toBe(0);
    const history = await changes(u.id, full);
    expect(history.map((h) => [Number(h.charge), h.planId])).toEqual([
      [-80_000, unlimited],
      [0, payg],
      [-80_000, unlimited],
    ]);
    // every entry that says it charged points at its own bill of the same amount; a free one at none
    for (const h of history) expect(h.bill === null ? 0 : Number(h.billCharge)).toBe(Number(h.charge));
    expect(new Set(history.filter((h) => h.bill !== null).map((h) => h.bill)).size).toBe(2);
    expect(await ledgerOf(u.id)).toEqual({ balance: 79.91, rentBills: 3 });

    // the database holds it (migration 071): an entry pointing at a bill another entry has, or at a
    // bill of another amount, or a charge without a bill, is refused
    const entry = (charge: number, ledgerId: number | null) =>
      t.db.query(
        `INSERT INTO rental_history (account_id, tel_code, number, full_number, type, charge, plan_id, ledger_id, created_at)
         VALUES ($1, '1', $2, $3, 3, $4, $5, $6, now())`,
        [u.id, phone, full, charge, unlimited, ledgerId],
      );
    const billed = history.find((h) => h.bill !== null)!;
    await expect(entry(-80_000, billed.bill)).rejects.toThrow(/rental_history_ledger/);
    await expect(entry(-70_000, billed.bill)).rejects.toThrow(/subscription history entry of -70000/);
    await expect(entry(-80_000, null)).rejects.toThrow(/without a bill/);
    expect(await changes(u.id, full)).toHaveLength(3);
  });

  it('a plan change sent twice at once, and again later, is one change with one bill; both answer it', async () => {
    at('2026-07-02T10:00:00Z');
    const payg = await planId('US', 'local', 'Pay As You Go', 'month');
    const unlimited = await planId('US', 'local', 'Unlimited', 'month');
    const yearly = await planId('US', 'local', 'Pay As You Go', 'year');
    const u = await renter(100);
    const phone = await rentOne(u, '617', payg);
    const full = `1${phone}`;
    const change = (plan: number, type: 1 | 2 = 1) =>
      u.c.get('/web/changePlan', { virtualNumber: full, planId: String(plan), type: String(type) });

    at('2026-07-02T12:00:00Z');
    const [a, b] = await Promise.all([change(unlimited), change(unlimited)]);
    expect([a.body.retcode, b.body.retcode]).toEqual([0, 0]);
    expect(b.body.data).toEqual(a.body.data);
    // the same request again a minute later (a retry after a lost answer): the same answer, nothing charged
    at('2026-07-02T12:01:00Z');
    const again = await change(unlimited);
    expect(again.body).toMatchObject({ retcode: 0, data: a.body.data });
    expect(await changes(u.id, full)).toHaveLength(1);
    expect(await ledgerOf(u.id)).toEqual({ balance: 87.91, rentBills: 2 });

    // a next-cycle change sent twice: one pending change, one history entry, nothing charged
    const [c, d] = await Promise.all([change(yearly, 2), change(yearly, 2)]);
    expect([c.body.retcode, d.body.retcode]).toEqual([0, 0]);
    expect(d.body.data).toEqual(c.body.data);
    expect((await changes(u.id, full)).map((h) => [Number(h.charge), h.planId])).toEqual([
      [-80_000, unlimited],
      [0, yearly],
    ]);
    expect(await ledgerOf(u.id)).toEqual({ balance: 87.91, rentBills: 2 });
  });
});

describe('numbers: forwarding, voicemail and calls', () => {
  it('switches only where the plan allows, one at a time; calls are recorded and charged per started minute; a voicemail reaches the chat', async () => {
    clock.set(Date.parse('2026-07-02T09:00:00Z'));
    const u = await renter(30);
    const other = await renter(0);
    const rent = async (areaCode: string, name: string) => {
      const plan = await planId('US', 'local', name, 'month');
      const phone = (
        await u.c.get('/web/getVirtualPhoneByAreaCode', { code: 'US', type: 'local', telCode: '1', areaCode })
      ).body.data.numbers[0];
      expect(
        (
          await u.c.post('/web/subVirtualPhone', {
            planId: plan,
            telCode: '1',
            phone,
            code: 'US',
            type: 'local',
          })
        ).body.retcode,
      ).toBe(0);
      return `1${phone}`;
    };
    await rent('702', 'Pay As You Go');
    expect((await u.c.post('/web/setForward', { forward: 1 })).body.retcode).toBe(100003);
    expect((await u.c.post('/web/setVoicemail', { voicemail: 1 })).body.retcode).toBe(100003);
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data).toMatchObject({
      canForward: false,
      canVoicemail: false,
    });
    const full = await rent('775', 'Unlimited');
    expect((await u.c.post('/web/setForward', { forward: 1 })).body.data).toEqual({
      forwardStatus: 1,
      voicemailStatus: 0,
    });
    expect((await u.c.post('/web/setVoicemail', { voicemail: 1 })).body.data).toEqual({
      forwardStatus: 0,
      voicemailStatus: 1,
    });
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data).toMatchObject({
      canForward: true,
      canVoicemail: true,
      forwardStatus: 0,
      voicemailStatus: 1,
    });
    expect((await other.c.post('/web/setVoicemail', { voicemail: 1 })).body.retcode).toBe(100003);
    const before = (await ledgerOf(u.id)).balance;

    const call = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/dev/inbound-call', payload: body });
    const vm = await call({
      from: '+1 415 555 0123',
      to: `+${full}`,
      seconds: 61,
      message: 'Call me back about the lease',
    });
    expect(vm.json().call).toMatchObject({
      type: 'voicemail',
      direction: 'in',
      duration: 61,
      billingDuration: 120,
      charge: -0.008,
      fromNumber: '14155550123',
      toNumber: full,
    });
    const [msg] = await t.db.query(
      `SELECT type, media, other_full_number FROM messages WHERE account_id = $1 AND type = 'voicemail'`,
      [u.id],
    );
    expect(msg).toMatchObject({ type: 'voicemail', other_full_number: '14155550123' });
    expect(msg.media).toMatch(/^\/media\//);
    // the simulated speech-to-text hears the caller's words in the recording
    const dialog = (
      await u.c.get('/web/getDialogList', { ownFullNumber: full, otherFullNumber: '14155550123' })
    ).body.data.dialogList;
    const voice = dialog.find((m: { type: string }) => m.type === 'voicemail');
    const stt = await u.c.get('/web/speechToText', { media: voice.media, smsId: voice.smsId });
    expect(stt.body).toMatchObject({ retcode: 0, data: { text: 'Call me back about the lease' } });

    expect((await u.c.post('/web/setForward', { forward: 1 })).body.data).toEqual({
      forwardStatus: 1,
      voicemailStatus: 0,
    });
    const missed = await call({ from: '14155550124', to: full, seconds: 40, answered: false });
    expect(missed.json().call).toMatchObject({ type: 'forward', duration: 0, billingDuration: 0, charge: 0 });
    // a repeated report of one call is recorded and charged once
    const report = { carrierId: 'CA123', from: '14155550125', to: full, seconds: 30, answered: true };
    const [a, b] = await Promise.all([t.app.deps.calls.inbound(report), t.app.deps.calls.inbound(report)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(
      await call({ from: '14155550125', to: '14155550999', seconds: 3 }).then((r) => r.json().retcode),
    ).toBe(100002);

    const list = (await u.c.get('/web/getCallList', { date: '2026-07' })).body.data;
    expect(list.totalRows).toBe(3);
    expect(list.callList.map((x: { type: string; charge: number }) => [x.type, x.charge])).toEqual([
      ['forward', -0.004],
      ['forward', 0],
      ['voicemail', -0.008],
    ]);
    expect(list.callList[0]).toMatchObject({
      tariffId: 114,
      line: 'commonLine',
      srcNum: '14155550125',
      destNum: full,
    });
    expect((await other.c.get('/web/getCallList', { date: '2026-07' })).body.data.totalRows).toBe(0);
    const after = await ledgerOf(u.id);
    expect(Math.round((before - after.balance) * 10_000)).toBe(120);
  });
});

describe('numbers: operator command', () => {
  it('lists subscriptions, reclaims, restores and runs renewals now', async () => {
    clock.set(Date.parse('2026-08-03T09:00:00Z'));
    const d = t.app.deps;
    const open: OpenContext = async (_flags, out) => ({
      env: d.env,
      codesOperator: d.codesOperator,
      demo: d.demo,
      media: d.media,
      numbers: d.numbers,
      operator: d.operator,
      payments: d.payments,
      review: d.review,
      subscriptions: d.subscriptions,
      brand: 'numa',
      out,
      close: async () => {},
    });
    const run = async (...argv: string[]) => {
      const lines: string[] = [];
      const code = await runAdmin(argv, { out: (l = '') => lines.push(l), err: (l) => lines.push(l) }, open);
      return { code, out: lines.join('\n') };
    };
    const u = await renter(10);
    const plan = await planId('US', 'local', 'Pay As You Go', 'month');
    const phone = (
      await u.c.get('/web/getVirtualPhoneByAreaCode', {
        code: 'US',
        type: 'local',
        telCode: '1',
        areaCode: '617',
      })
    ).body.data.numbers[0];
    expect(
      (
        await u.c.post('/web/subVirtualPhone', {
          planId: plan,
          telCode: '1',
          phone,
          code: 'US',
          type: 'local',
        })
      ).body.retcode,
    ).toBe(0);
    const full = `1${phone}`;

    expect((await run('number', 'subs', String(u.id))).out).toBe(
      `+${full}  plan ${plan}  next 2026-09-03  renews`,
    );
    expect(await run('number', 'reclaim', `+${full}`)).toEqual({
      code: 0,
      out: `+${full} reclaimed from account ${u.id}`,
    });
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data.virtualPhones).toEqual([]);
    expect((await run('number', 'restore', `+${full}`)).code).toBe(0);
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data.virtualPhones).toMatchObject([
      { phone, paymentDate: '2026-08-03' },
    ]);
    expect((await run('number', 'renew-now')).code).toBe(0);
    expect((await u.c.get('/web/getVirtualPhoneList')).body.data.virtualPhones).toMatchObject([
      { phone, paymentDate: '2026-09-03' },
    ]);
    expect(await ledgerOf(u.id)).toEqual({ balance: 1.82, rentBills: 2 });
    expect((await run('number', 'restore', `+${full}`)).code).not.toBe(0);
  });
});
