import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate';
import { callsRepo } from '../src/repositories/calls';
import type { HistoryKind } from '../src/repositories/historyCounts';
import { historyRepo } from '../src/repositories/payments';
import { subscriptionsRepo } from '../src/repositories/subscriptions';
import { openTestDb, rawQuery, testDbKind, type TestDb } from './helpers';

/**
 * Migration 170 (issue 24 §4): the month totals of the page-numbered histories are kept per account,
 * kind and UTC month by the tables' statement triggers, and backfilled from the rows already there.
 * Every check compares the kept counts with the rows counted one by one.
 */
let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db?.drop();
});

/** The counts as the rows say them (what the pages counted before migration 170). */
const exact = `
  SELECT account_id::int AS a, 'payment' AS k, to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS m, count(*)::int AS n
    FROM ledger WHERE type IN (1, 7, 10) AND charge > 0 GROUP BY 1, 3
  UNION ALL
  SELECT account_id::int, 'sms', to_char(date_trunc('month', to_timestamp(date / 1000) AT TIME ZONE 'UTC'), 'YYYY-MM'), count(*)::int
    FROM messages WHERE NOT deleted GROUP BY 1, 3
  UNION ALL
  SELECT account_id::int, 'call', to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM'), count(*)::int
    FROM call_records GROUP BY 1, 3
  UNION ALL
  SELECT account_id::int, 'number', to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM'), count(*)::int
    FROM rental_history WHERE kind = 'number' GROUP BY 1, 3
  ORDER BY 1, 2, 3`;
const kept = `
  SELECT account_id::int AS a, kind AS k, to_char(month, 'YYYY-MM') AS m, n::int AS n
    FROM history_counts WHERE n <> 0 ORDER BY 1, 2, 3`;

/** A page of a kind's month through its repository: the kept total and the rows (the page's JSON). */
async function page(
  kind: HistoryKind,
  a: number,
  m: { from: Date; to: Date },
  limit: number,
  offset: number,
) {
  const p =
    kind === 'payment'
      ? await historyRepo.payments(db.q, a, m.from, m.to, limit, offset)
      : kind === 'sms'
        ? await historyRepo.messages(db.q, a, m.from, m.to, limit, offset)
        : kind === 'call'
          ? await callsRepo.page(db.q, { accountId: a, ...m, limit, offset })
          : await subscriptionsRepo.historyPage(db.q, { accountId: a, ...m, limit, offset });
  return { total: p.total, rows: JSON.parse(p.list) as Record<string, unknown>[] };
}
const monthOf = (from: string) => {
  const f = new Date(from);
  return { from: f, to: new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1)) };
};
const total = async (a: number, kind: HistoryKind, from: string) =>
  (await page(kind, a, monthOf(from), 1, 0)).total;

async function expectCountsExact() {
  const want = await db.query<{ a: number; k: string; m: string; n: number }>(exact);
  expect(want.length).toBeGreaterThan(0);
  expect(await db.query(kept)).toEqual(want);
}

const balances = new Map<number, number>();
async function account(email: string) {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id::int AS id`,
    [email],
  );
  return row!.id;
}
/** A bill at a time of its own (created_at is the database's now() in the code; set here). */
async function bill(accountId: number, type: number, charge: number, at: string) {
  const before = balances.get(accountId) ?? 0;
  await db.query(
    `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [accountId, type, charge, before, before + charge, at],
  );
  balances.set(accountId, before + charge);
}
let seq = 0;
async function message(accountId: number, at: string, deleted = false) {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, direction, type, status, sms_id, date, deleted)
     VALUES ($1, '15125550100', '1', $2, 'out', 'sms', 0, $3, $4, $5) RETURNING id::int AS id`,
    [accountId, `1512555${String(++seq).padStart(4, '0')}`, `s${seq}`, Date.parse(at), deleted],
  );
  return row!.id;
}
async function call(accountId: number, at: string) {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO call_records (account_id, direction, from_number, to_number, duration, billing_duration, type, carrier_id, created_at)
     VALUES ($1, 'in', '15125550199', '15125550100', 30, 60, 'voice', $2, $3) RETURNING id::int AS id`,
    [accountId, `c${++seq}`, at],
  );
  return row!.id;
}
async function history(accountId: number, at: string, kind: 'number' | 'code_number' = 'number') {
  const [row] = await db.query<{ id: number }>(
    kind === 'number'
      ? `INSERT INTO rental_history (account_id, full_number, tel_code, number, type, created_at)
         VALUES ($1, '15125550100', '1', '5125550100', 1, $2) RETURNING id::int AS id`
      : `INSERT INTO rental_history (account_id, full_number, app, country, type, created_at)
         VALUES ($1, '15125550100', 'wa', 'US', 1, $2) RETURNING id::int AS id`,
    [accountId, at],
  );
  return row!.id;
}

/** Some of everything, in two months and at the months' edges, for two accounts. */
async function fill(a: number, b: number) {
  for (const [type, charge] of [
    [1, 100_000],
    [7, 5_000],
    [10, 5_000],
    [9, 50_000], // an adjustment: not a payment
    [11, -10_000], // a top-up refund: not a payment
    [2, -100], // an SMS bill
  ] as const) {
    await bill(a, type, charge, '2026-03-31T23:59:59.999Z');
    await bill(a, type, charge, '2026-04-01T00:00:00Z');
    await bill(b, type === 11 || type === 2 ? 9 : type, Math.abs(charge), '2026-04-15T12:00:00Z');
  }
  await message(a, '2026-03-31T23:59:59.999Z');
  await message(a, '2026-04-01T00:00:00Z');
  await message(a, '2026-04-02T00:00:00Z', true);
  await message(b, '2026-04-20T00:00:00Z');
  await call(a, '2026-03-31T23:59:59Z');
  await call(a, '2026-04-01T00:00:00Z');
  await call(b, '2026-04-01T00:00:00Z');
  await history(a, '2026-03-15T00:00:00Z');
  await history(a, '2026-04-15T00:00:00Z');
  await history(a, '2026-04-16T00:00:00Z', 'code_number');
  await history(b, '2026-04-16T00:00:00Z');
}

describe(`history counts (migrations 170 and 171, ${testDbKind})`, () => {
  it('backfills the counts of the rows already there', async () => {
    // the database as before migration 170, with rows in it
    for (const s of [
      'DROP TRIGGER ledger_count_history ON ledger',
      'DROP FUNCTION ledger_count_history()',
      'DROP TRIGGER messages_count_history_insert ON messages',
      'DROP TRIGGER messages_count_history_update ON messages',
      'DROP TRIGGER messages_count_history_delete ON messages',
      'DROP FUNCTION messages_count_history()',
      'DROP TRIGGER call_records_count_history_insert ON call_records',
      'DROP TRIGGER call_records_count_history_update ON call_records',
      'DROP TRIGGER call_records_count_history_delete ON call_records',
      'DROP FUNCTION call_records_count_history()',
      'DROP TRIGGER rental_history_count_history_insert ON rental_history',
      'DROP TRIGGER rental_history_count_history_update ON rental_history',
      'DROP TRIGGER rental_history_count_history_delete ON rental_history',
      'DROP FUNCTION rental_history_count_history()',
      'DROP TABLE history_counts',
      'DROP INDEX ledger_account_created',
      'DROP INDEX ledger_account_payments',
      'DROP INDEX messages_account_history',
      'CREATE INDEX ledger_account_time ON ledger (account_id, created_at DESC)',
      'DELETE FROM schema_migrations WHERE version IN (170, 171)',
    ])
      await db.query(s);
    const a = await account('hc-a@example.com');
    const b = await account('hc-b@example.com');
    await fill(a, b);

    expect(await migrate(db)).toEqual(['170_history_counts.sql', '171_payment_counts_by_row.sql']);
    await expectCountsExact();
    // the page reads them
    expect(await total(a, 'payment', '2026-04-01T00:00:00Z')).toBe(3);
    expect(await total(a, 'payment', '2026-03-01T00:00:00Z')).toBe(3);
    expect(await total(a, 'sms', '2026-04-01T00:00:00Z')).toBe(1);
    expect(await total(a, 'number', '2026-04-01T00:00:00Z')).toBe(1);
    expect(await total(b, 'call', '2026-04-01T00:00:00Z')).toBe(1);
    expect(await total(b, 'call', '2026-05-01T00:00:00Z')).toBe(0);
  });

  it('keeps them through inserts, refunds, deletions, restores and deletes, in bulk and row by row', async () => {
    const a = await account('hc-c@example.com');
    const b = await account('hc-d@example.com');
    await fill(a, b);
    await expectCountsExact();

    // many rows in one statement, over two months and two accounts
    await db.query(
      `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, direction, type, status, sms_id, date, deleted)
       SELECT CASE WHEN i % 3 = 0 THEN $2::bigint ELSE $1::bigint END, '15125550100', '1', '15125550111', 'in', 'sms', 0,
              'bulk' || i, $3::bigint + i::bigint * 3600000, i % 7 = 0
         FROM generate_series(1, 1000) i`,
      [a, b, Date.parse('2026-04-20T00:00:00Z')],
    );
    await db.query(
      `INSERT INTO call_records (account_id, direction, from_number, to_number, duration, billing_duration, type, carrier_id, created_at)
       SELECT $1, 'out', '15125550100', '15125550199', 10, 60, 'voice', 'bulk' || i,
              '2026-04-25T00:00:00Z'::timestamptz + i * interval '1 hour'
         FROM generate_series(1, 300) i`,
      [a],
    );
    await expectCountsExact();

    // a refund and a chargeback are bills too, not payments
    await bill(a, 11, -20_000, '2026-04-05T00:00:00Z');
    await bill(a, 12, -20_000, '2026-04-05T00:00:00Z');
    await bill(a, 1, 20_000, '2026-04-06T00:00:00Z');
    await expectCountsExact();

    // messages deleted (the flag) and restored, status moved (no count changes), rows purged
    await db.query(`UPDATE messages SET deleted = true WHERE account_id = $1 AND sms_id LIKE 'bulk1%'`, [a]);
    await db.query(`UPDATE messages SET status = 2 WHERE account_id = $1`, [a]);
    await db.query(`UPDATE messages SET deleted = false WHERE account_id = $1 AND sms_id LIKE 'bulk11%'`, [
      a,
    ]);
    await db.query(`DELETE FROM messages WHERE account_id = $1 AND sms_id LIKE 'bulk2%'`, [b]);
    // a message moved to another month, a call and a history entry moved and deleted
    await db.query(
      `UPDATE messages SET date = date - 40::bigint * 86400000 WHERE sms_id = 'bulk3' AND account_id = $1`,
      [b],
    );
    await db.query(
      `UPDATE call_records SET created_at = created_at + interval '1 month' WHERE carrier_id LIKE 'bulk1%'`,
    );
    await db.query(`DELETE FROM call_records WHERE carrier_id LIKE 'bulk2%'`);
    const h = await history(a, '2026-04-30T23:59:59Z');
    await db.query(`UPDATE rental_history SET restored = true WHERE id = $1`, [h]);
    await db.query(`UPDATE rental_history SET created_at = '2026-05-01T00:00:00Z' WHERE id = $1`, [h]);
    await db.query(`DELETE FROM rental_history WHERE account_id = $1 AND kind = 'code_number'`, [a]);
    await expectCountsExact();

    // one transaction that writes and rolls back leaves the counts as they were
    const before = await db.query(kept);
    await db
      .tx(async (tx) => {
        await rawQuery(tx, `DELETE FROM call_records WHERE account_id = $1`, [a]);
        await rawQuery(tx, `UPDATE messages SET deleted = true WHERE account_id = $1`, [a]);
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await db.query(kept)).toEqual(before);
    await expectCountsExact();
  });

  it("gives a page's total with its rows, and the total of a page past the last or of an empty month", async () => {
    const a = await account('hc-p@example.com');
    const b = await account('hc-q@example.com');
    await fill(a, b);
    for (let i = 0; i < 5; i++) {
      await message(a, `2026-04-0${i + 3}T00:00:00Z`);
      await call(a, `2026-04-0${i + 3}T00:00:00Z`);
      await history(a, `2026-04-0${i + 3}T00:00:00Z`);
      await bill(a, 1, 1_000, `2026-04-0${i + 3}T00:00:00Z`);
    }
    const april = { from: new Date('2026-04-01T00:00:00Z'), to: new Date('2026-05-01T00:00:00Z') };
    const may = { from: april.to, to: new Date('2026-06-01T00:00:00Z') };
    for (const kind of ['payment', 'sms', 'call', 'number'] as const) {
      const [row] = await db.query<{ n: number }>(
        `SELECT n::int AS n FROM (${exact}) x WHERE a = $1 AND k = $2 AND m = '2026-04'`,
        [a, kind],
      );
      const n = row!.n;
      expect(n, kind).toBeGreaterThan(5);
      const first = await page(kind, a, april, 2, 0);
      expect(first.total, kind).toBe(n);
      expect(first.rows, kind).toHaveLength(2);
      // the rows are the page's columns only: the total is not left in them
      expect(
        first.rows.every((r) => !('total' in r)),
        kind,
      ).toBe(true);
      const last = await page(kind, a, april, 2, Math.floor((n - 1) / 2) * 2);
      expect(last.total, kind).toBe(n);
      expect(last.rows.length, kind).toBe(n % 2 || 2);
      expect(await page(kind, a, april, 2, n + 4), kind).toEqual({ rows: [], total: n });
      expect(await page(kind, a, may, 2, 0), kind).toEqual({ rows: [], total: 0 });
    }
  });
});
