import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { credit } from './chat-support';
import { client, signIn, startTestApp, type TestApp } from './helpers';

let t: TestApp;
const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
const day = 86_400_000;
let seq = 0;

/** A signed-in account, with a verified phone unless told otherwise, and a balance. */
async function user(balance = 0, opts: { phone?: boolean } = {}) {
  const n = seq++;
  const email = `cell${process.pid}x${n}@example.com`;
  const c = await signIn(t.app, { email });
  const [{ id }] = await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [email]);
  if (opts.phone !== false)
    await t.db.query(`UPDATE accounts SET tel_code = '1', phone = $2 WHERE id = $1`, [
      id,
      `20256${String(50000 + n).slice(-5)}`,
    ]);
  if (balance) await t.db.tx((tx) => credit(tx, id, balance));
  return { c, id };
}

/** The ledger invariant (bills sum to the balance) and the account's order bills. */
async function ledgerOf(id: number) {
  const [r] = await t.db.query<{ sum: number; balance: number; n: number }>(
    `SELECT COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = $1), 0)::bigint AS sum,
            (SELECT balance FROM accounts WHERE id = $1) AS balance,
            (SELECT count(*) FROM ledger WHERE account_id = $1 AND type = 50)::int AS n`,
    [id],
  );
  expect(Number(r!.sum)).toBe(Number(r!.balance));
  return { balance: Number(r!.balance) / 10_000, orderBills: r!.n };
}

const order = (c: ReturnType<typeof client>, body: Record<string, unknown>) =>
  c.post('/web/cellPlan/order', { cardType: 1, validityType: 1, planCount: 1, ...body });

beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});

describe('embedded plans page: cell phone plans', () => {
  it('needs the session: no token and a bad token are refused; the catalogue is priced from the rates table', async () => {
    const anon = client(t.app);
    expect((await anon.get('/web/cellPlan/getPlanList')).status).toBe(401);
    anon.setToken('not-a-token');
    const bad = await anon.get('/web/cellPlan/getOrderList');
    expect(bad.status).toBe(401);
    expect(bad.body.retcode).not.toBe(0);

    const { c } = await user(3);
    const res = await c.get('/web/cellPlan/getPlanList');
    expect(res.body.retcode).toBe(0);
    const { planList, simKitFee, balance, phone } = res.body.data;
    expect(planList.map((p: { code: string }) => p.code)).toEqual(['starter', 'plus', 'unlimited', 'global']);
    const unlimited = planList[2];
    expect(unlimited.prices).toEqual([
      { validityType: 1, days: 30, price: 30 },
      { validityType: 2, days: 90, price: 81 },
      { validityType: 3, days: 180, price: 153 },
      { validityType: 4, days: 365, price: 270 },
    ]);
    expect(simKitFee).toBe(2);
    expect(balance).toBe(3);
    expect(phone).toMatch(/^120256\d{5}$/);

    // cloudnumber prices in its own currency
    const cn = await signIn(t.app, { email: `cellcn${process.pid}@example.com` }, 'cloudnumber.localhost');
    const cnPlans = (await cn.get('/web/cellPlan/getPlanList')).body.data.planList;
    expect(cnPlans[0].prices[0].price).toBe(105);
  });

  it('orders: needs a phone (100025), charges once with its bill, opens a line; plan only adds time from its end', async () => {
    const nophone = await user(50, { phone: false });
    const refused = await order(nophone.c, { planId: 1, requestId: 'np1' });
    expect(refused.body.retcode).toBe(100025);
    expect((await ledgerOf(nophone.id)).orderBills).toBe(0);

    const { c, id } = await user(100);
    const r = await order(c, {
      planId: 3,
      cardType: 2,
      label: 'Travel',
      requestId: 'a1',
      email: 'Me@Example.com',
    });
    expect(r.body.retcode).toBe(0);
    const o = r.body.data.order;
    expect(o).toMatchObject({ code: 'unlimited', cardType: 2, days: 30, amount: 32, lineLabel: 'Travel' });
    expect(o.contactEmail).toBe('me@example.com');
    expect(o.periodEnd - o.periodStart).toBe(30 * day);
    expect(r.body.data.balance).toBe(68);
    const [bill] = await t.db.query<{ charge: number; options: Record<string, unknown> }>(
      `SELECT charge, options FROM ledger WHERE account_id = $1 AND type = 50`,
      [id],
    );
    expect(Number(bill!.charge)).toBe(-320_000);
    expect(bill!.options).toMatchObject({
      orderId: o.orderId,
      cardType: 2,
      validityType: 1,
      planCount: 1,
      days: 30,
    });

    // 10 days later: 2 × 30 days more on the same line, from the end of its paid time
    clock.advance(10 * day);
    const more = await order(c, { planId: 1, cardType: 3, lineId: o.lineId, planCount: 2, requestId: 'a2' });
    expect(more.body.retcode).toBe(0);
    expect(more.body.data.order).toMatchObject({ amount: 30, days: 60, periodStart: o.periodEnd });
    const lines = (await c.get('/web/cellPlan/getSubscriptionList')).body.data.list;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      code: 'starter',
      status: 'active',
      orderCount: 2,
      endDate: o.periodEnd + 60 * day,
    });

    // a plan-only order needs a line, and a new line takes none
    expect((await order(c, { planId: 1, cardType: 3, requestId: 'a3' })).body.retcode).toBe(100001);
    expect((await order(c, { planId: 1, lineId: o.lineId, requestId: 'a4' })).body.retcode).toBe(100001);
    expect((await order(c, { planId: 99, requestId: 'a5' })).body.retcode).toBe(100002);

    const list = (await c.get('/web/cellPlan/getOrderList', { pageNo: 1, pageSize: 50 })).body.data;
    expect(list.totalRows).toBe(2);
    expect(list.list[0].orderId).toBe(more.body.data.order.orderId);
    expect((await c.get('/web/cellPlan/getOrder', { orderId: o.orderId })).body.data.orderId).toBe(o.orderId);
    expect(await ledgerOf(id)).toEqual({ balance: 38, orderBills: 2 });

    // Edit renames the line; the line expires when its time is over
    const renamed = await c.post('/web/cellPlan/updateLine', { lineId: o.lineId, label: ' Work phone ' });
    expect(renamed.body.data.label).toBe('Work phone');
    clock.advance(200 * day);
    expect((await c.get('/web/cellPlan/getSubscriptionList')).body.data.list[0].status).toBe('expired');
  });

  it('charges once under concurrency: one requestId sent 5 times at once, and orders racing for one balance', async () => {
    const { c, id } = await user(40);
    const same = await Promise.all([1, 2, 3, 4, 5].map(() => order(c, { planId: 3, requestId: 'race1' })));
    expect(same.every((r) => r.body.retcode === 0)).toBe(true);
    expect(new Set(same.map((r) => r.body.data.order.orderId)).size).toBe(1);
    expect(await ledgerOf(id)).toEqual({ balance: 10, orderBills: 1 });
    // a replay later answers the same order and charges nothing
    expect((await order(c, { planId: 3, requestId: 'race1' })).body.data.order.orderId).toBe(
      same[0]!.body.data.order.orderId,
    );

    // 10 left: a starter plan (15) is refused with 400001; with 30, of three at once exactly two fit
    const short = await order(c, { planId: 1, requestId: 'r2' });
    expect([short.status, short.body.retcode]).toEqual([400, 400001]);
    await t.db.tx((tx) => credit(tx, id, 20));
    const racing2 = await Promise.all(['r5', 'r6', 'r7'].map((k) => order(c, { planId: 1, requestId: k })));
    expect(racing2.filter((r) => r.body.retcode === 0)).toHaveLength(2);
    expect(racing2.filter((r) => r.body.retcode === 400001)).toHaveLength(1);
    expect(await ledgerOf(id)).toEqual({ balance: 0, orderBills: 3 });
    expect((await c.get('/web/cellPlan/getOrderList')).body.data.totalRows).toBe(3);
  });

  it("another account's order and line can be neither read, renamed nor topped up", async () => {
    const a = await user(50);
    const b = await user(50);
    const o = (await order(a.c, { planId: 2, requestId: 'own' })).body.data.order;
    const read = await b.c.get('/web/cellPlan/getOrder', { orderId: o.orderId });
    expect([read.status, read.body.retcode]).toEqual([403, 100003]);
    expect(
      (await b.c.post('/web/cellPlan/updateLine', { lineId: o.lineId, label: 'Mine' })).body.retcode,
    ).toBe(100003);
    const topUp = await order(b.c, { planId: 2, cardType: 3, lineId: o.lineId, requestId: 'steal' });
    expect(topUp.body.retcode).toBe(100003);
    expect(await ledgerOf(b.id)).toEqual({ balance: 50, orderBills: 0 });
    expect((await b.c.get('/web/cellPlan/getOrderList')).body.data).toEqual({ totalRows: 0, list: [] });
    expect((await b.c.get('/web/cellPlan/getSubscriptionList')).body.data.list).toEqual([]);
    expect((await b.c.get('/web/cellPlan/getOrder', { orderId: 'CNOPE' })).body.retcode).toBe(100002);
  });
});
