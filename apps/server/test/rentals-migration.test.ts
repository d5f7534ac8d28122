import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations, splitStatements } from '../src/db/migrate';
import { openTestDb, testDbKind, type TestDb } from './helpers';

/**
 * Migration 150 (issue 19): the four tables of the two renewal engines (number_subscriptions,
 * subscription_history, code_numbers, code_number_history) become one table pair, rentals and
 * rental_history, with their rows. The old tables are made again here from their own migrations'
 * statements (020, 025, 026, 071), filled as the old code filled them, and migration 150 runs on them.
 */
const oldTables = /(number_subscriptions|subscription_history|code_numbers|code_number_history)/;

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db?.drop();
});

/** The database as it was before migration 150: the old tables (empty), not the new ones. */
async function rollBack() {
  for (const s of [
    'DROP TABLE rental_history',
    'DROP FUNCTION rental_history_as_billed()',
    'DROP TABLE rentals',
    'DELETE FROM schema_migrations WHERE version = 150',
  ])
    await db.query(s);
  for (const m of readMigrations().filter((m) => [20, 25, 26, 71].includes(m.version)))
    for (const statement of splitStatements(m.sql)) if (oldTables.test(statement)) await db.query(statement);
}

const one = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await db.query<T>(text, params))[0]!;

describe(`migration 150: one rentals table pair, with the data (${testDbKind})`, () => {
  it('moves every subscription, kept number and history entry, with bill-signed charges', async () => {
    await rollBack();
    const account = async (email: string) =>
      (
        await one<{ id: number }>(
          `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id::int AS id`,
          [email],
        )
      ).id;
    const a = await account('mig150-a@example.com');
    const b = await account('mig150-b@example.com');
    let balance = 0;
    const bill = async (accountId: number, type: number, charge: number) => {
      const before = accountId === a ? balance : 0;
      const row = await one<{ id: number }>(
        `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance, options)
         VALUES ($1, $2, $3, $4, $5, '{}') RETURNING id::int AS id`,
        [accountId, type, charge, before, before + charge],
      );
      if (accountId === a) balance += charge;
      return row.id;
    };
    await bill(a, 9, 500_000);
    const plans = await db.query<{ id: number }>(
      `SELECT id FROM plans WHERE country = 'US' AND kind = 'local' ORDER BY sort LIMIT 2`,
    );
    const [plan, other] = plans.map((p) => p.id) as [number, number];

    // a rented number in its grace period, not renewing, with a plan change pending and 2 changes made
    const [vn] = await db.query<{ id: number }>(
      `INSERT INTO virtual_numbers (account_id, tel_code, number, full_number, country, plan_id, payment_date, month_rent)
       VALUES ($1, '1', '5125550100', '15125550100', 'US', $2, '2026-04-10', 120900) RETURNING id::int AS id`,
      [a, plan],
    );
    await db.query(
      `INSERT INTO number_subscriptions (number_id, account_id, plan_id, auto_renew, pending_plan_id, grace_since, changes, created_at)
       VALUES ($1, $2, $3, false, $4, '2026-04-10', 2, '2026-03-10T08:00:00Z')`,
      [vn!.id, a, plan, other],
    );
    // a number an operator gave (no subscription): no rental
    await db.query(
      `INSERT INTO virtual_numbers (account_id, tel_code, number, full_number, country, payment_date)
       VALUES ($1, '1', '5125550101', '15125550101', 'US', '2026-04-11')`,
      [b],
    );
    const rentBill = await bill(a, 5, -80_000);
    const subscribed = await one<{ id: number }>(
      `INSERT INTO subscription_history (account_id, tel_code, number, full_number, type, charge, plan_id, ledger_id, created_at)
       VALUES ($1, '1', '5125550100', '15125550100', 1, -80000, $2, $3, '2026-03-10T08:00:00Z') RETURNING id::int AS id`,
      [a, plan, rentBill],
    );
    const reclaimed = await one<{ id: number }>(
      `INSERT INTO subscription_history (account_id, tel_code, number, full_number, type, charge, plan_id, res_date, restored, created_at)
       VALUES ($1, '1', '5125550199', '15125550199', 100, 0, $2, '2026-05-01', false, '2026-03-20T09:00:00Z') RETURNING id::int AS id`,
      [a, plan],
    );

    // a kept verification number (its month charged, positive in the old history) and one not kept
    await db.query(
      `INSERT INTO code_numbers (phone, app, account_id, country, first_used_at, valid_until, sub_status, month_rent) VALUES
         ('12065550101', 'openai', $1, 'US', '2026-03-01T10:00:00Z', '2026-04-01T10:00:00.123Z', 1, 20000),
         ('12065550102', 'google', $2, 'US', '2026-03-02T11:00:00Z', '2026-04-02T11:00:00Z', 0, 0)`,
      [a, b],
    );
    const codeBill = await bill(a, 5, -20_000);
    await db.query(
      `INSERT INTO code_number_history (account_id, phone, app, country, type, charge, ledger_id, next_payment_date, res_date, created_at) VALUES
         ($1, '12065550101', 'openai', 'US', 1, 20000, $2, '2026-04-01T10:00:00.123Z', NULL, '2026-03-01T10:00:00Z'),
         ($1, '12065550103', 'telegram', 'GB', 100, 0, NULL, '2026-03-05T00:00:00Z', '2026-04-04T00:00:00Z', '2026-03-05T00:00:01Z')`,
      [a, codeBill],
    );

    expect(
      await migrate(
        db,
        readMigrations().filter((m) => m.version === 150),
      ),
    ).toEqual(['150_rentals.sql']);

    const rentals = await db.query(
      `SELECT kind, number_id::int AS number_id, phone, app, account_id::int AS account_id, country, plan_id,
              pending_plan_id, auto_renew, rent::int AS rent, valid_until, to_char(grace_since, 'YYYY-MM-DD') AS grace_since,
              changes, started_at
         FROM rentals ORDER BY id`,
    );
    expect(rentals).toEqual([
      {
        kind: 'number',
        number_id: vn!.id,
        phone: null,
        app: null,
        account_id: a,
        country: null,
        plan_id: plan,
        pending_plan_id: other,
        auto_renew: false,
        rent: 0,
        valid_until: new Date('2026-04-10T00:00:00Z'),
        grace_since: '2026-04-10',
        changes: 2,
        started_at: new Date('2026-03-10T08:00:00Z'),
      },
      {
        kind: 'code_number',
        number_id: null,
        phone: '12065550101',
        app: 'openai',
        account_id: a,
        country: 'US',
        plan_id: null,
        pending_plan_id: null,
        auto_renew: true,
        rent: 20000,
        valid_until: new Date('2026-04-01T10:00:00.123Z'),
        grace_since: null,
        changes: 0,
        started_at: new Date('2026-03-01T10:00:00Z'),
      },
      {
        kind: 'code_number',
        number_id: null,
        phone: '12065550102',
        app: 'google',
        account_id: b,
        country: 'US',
        plan_id: null,
        pending_plan_id: null,
        auto_renew: false,
        rent: 0,
        valid_until: new Date('2026-04-02T11:00:00Z'),
        grace_since: null,
        changes: 0,
        started_at: new Date('2026-03-02T11:00:00Z'),
      },
    ]);

    const history = await db.query(
      `SELECT id::int AS id, kind, account_id::int AS account_id, full_number, tel_code, number, app, country, type,
              charge::int AS charge, plan_id, ledger_id::int AS ledger_id, next_payment_at, res_at, restored, created_at
         FROM rental_history ORDER BY id`,
    );
    expect(history).toEqual([
      {
        id: subscribed.id,
        kind: 'number',
        account_id: a,
        full_number: '15125550100',
        tel_code: '1',
        number: '5125550100',
        app: null,
        country: null,
        type: 1,
        charge: -80_000,
        plan_id: plan,
        ledger_id: rentBill,
        next_payment_at: null,
        res_at: null,
        restored: false,
        created_at: new Date('2026-03-10T08:00:00Z'),
      },
      {
        id: reclaimed.id,
        kind: 'number',
        account_id: a,
        full_number: '15125550199',
        tel_code: '1',
        number: '5125550199',
        app: null,
        country: null,
        type: 100,
        charge: 0,
        plan_id: plan,
        ledger_id: null,
        next_payment_at: null,
        res_at: new Date('2026-05-01T00:00:00Z'),
        restored: false,
        created_at: new Date('2026-03-20T09:00:00Z'),
      },
      {
        id: reclaimed.id + 1,
        kind: 'code_number',
        account_id: a,
        full_number: '12065550101',
        tel_code: null,
        number: null,
        app: 'openai',
        country: 'US',
        type: 1,
        // signed as its bill now (it was stored +20000 and flipped when read)
        charge: -20_000,
        plan_id: null,
        ledger_id: codeBill,
        next_payment_at: new Date('2026-04-01T10:00:00.123Z'),
        res_at: null,
        restored: false,
        created_at: new Date('2026-03-01T10:00:00Z'),
      },
      {
        id: reclaimed.id + 2,
        kind: 'code_number',
        account_id: a,
        full_number: '12065550103',
        tel_code: null,
        number: null,
        app: 'telegram',
        country: 'GB',
        type: 100,
        charge: 0,
        plan_id: null,
        ledger_id: null,
        next_payment_at: new Date('2026-03-05T00:00:00Z'),
        res_at: new Date('2026-04-04T00:00:00Z'),
        restored: false,
        created_at: new Date('2026-03-05T00:00:01Z'),
      },
    ]);

    // every moved entry says what its bill did (the check of migration 071, now on both kinds)
    await db.query(`UPDATE rental_history SET charge = charge`);
    await expect(
      db.query(`UPDATE rental_history SET charge = -charge WHERE ledger_id = $1`, [codeBill]),
    ).rejects.toThrow(/subscription history entry of 20000/);
    // the next entry follows the moved ones; the rented number's rental goes with its number
    const next = await one<{ id: number }>(
      `INSERT INTO rental_history (account_id, full_number, app, country, type, created_at)
       VALUES ($1, '12065550101', 'openai', 'US', 100, now()) RETURNING id::int AS id`,
      [a],
    );
    expect(next.id).toBe(reclaimed.id + 3);
    await db.query(`DELETE FROM virtual_numbers WHERE id = $1`, [vn!.id]);
    expect(await db.query(`SELECT 1 FROM rentals WHERE kind = 'number'`)).toHaveLength(0);
    const gone = await db.query(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_name IN ('number_subscriptions', 'subscription_history', 'code_numbers', 'code_number_history')`,
    );
    expect(gone).toEqual([]);
  });
});
