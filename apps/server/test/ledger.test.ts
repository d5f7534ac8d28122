import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, minor, type Minor } from '@numa/contract';
import { idemKey } from '../src/lib/idem';
import { ledger } from '../src/repositories/ledger';
import { openTestDb, rawQuery, testBill, testDbKind, type TestDb } from './helpers';

/**
 * Money moves only through the ledger, and the database holds it to that: a bill row moves its
 * balance from exactly its before-balance, nothing else writes a balance, bills never change, and a
 * charge cannot end below zero unless its bill type allows it.
 */
let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db?.drop();
});

let seq = 0;
async function newAccount(): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
    [`ledger${seq++}@example.com`],
  );
  return row!.id;
}
const balanceOf = async (id: number) =>
  (await db.query<{ balance: number }>(`SELECT balance FROM accounts WHERE id = $1`, [id]))[0]!.balance;
const apply = (accountId: number, type: number, charge: number, key?: string) =>
  db.tx((tx) =>
    ledger.apply(
      tx,
      testBill(accountId, type, minor(charge), key ? idemKey('operator', accountId, key) : undefined),
    ),
  );
const sqlstate = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
};

describe(`the ledger (${testDbKind})`, () => {
  it('applies a change once per idempotency key and refuses a charge below zero (400001) without writing', async () => {
    const id = await newAccount();
    expect((await apply(id, constants.billTypes.adjustment, 1000, 'a')).applied).toBe(true);
    const again = await apply(id, constants.billTypes.adjustment, 1000, 'a');
    expect(again.applied).toBe(false);
    expect(await balanceOf(id)).toBe(1000);
    await expect(apply(id, constants.billTypes.sms, -1001)).rejects.toMatchObject({ retcode: 400001 });
    expect(await balanceOf(id)).toBe(1000);
    const { row } = await apply(id, constants.billTypes.sms, -1000);
    expect(row).toMatchObject({ beforeBalance: 1000, afterBalance: 0, charge: -1000 });
    // an operator's adjustment, a top-up refunded and a chargeback may go below zero; nothing else
    // may (a refund of a charge, type 8, is a credit: issue 18)
    expect((await apply(id, constants.billTypes.adjustment, -50)).row.afterBalance).toBe(-50);
    expect((await apply(id, constants.billTypes.topUpRefund, -50)).row.afterBalance).toBe(-100);
    expect((await apply(id, constants.billTypes.chargeback, -50)).row.afterBalance).toBe(-150);
    for (const type of [
      constants.billTypes.refund,
      constants.billTypes.refundReversed,
      constants.billTypes.chargebackReversed,
    ])
      await expect(apply(id, type, -1)).rejects.toMatchObject({ retcode: 400001 });
    // a credit is always taken, even while the balance is still below zero
    expect((await apply(id, constants.billTypes.recharge, 30)).row.afterBalance).toBe(-120);
  });

  it('takes a transaction handle only', async () => {
    const id = await newAccount();
    const change = { accountId: id, type: constants.billTypes.adjustment, charge: minor(1) };
    // @ts-expect-error -- the database root is not a transaction: ledger.apply refuses it at compile time
    const call = () => ledger.apply(db.q, change);
    expect(typeof call).toBe('function');
  });

  it('is enforced by the database: nothing else writes a balance, bills are append-only and consistent', async () => {
    const id = await newAccount();
    await apply(id, constants.billTypes.adjustment, 500);
    expect(await sqlstate(db.query(`UPDATE accounts SET balance = 1000000 WHERE id = $1`, [id]))).toBe(
      'NM003',
    );
    expect(
      await sqlstate(
        db.query(`INSERT INTO accounts (brand, email, balance) VALUES ('numa', 'rich@example.com', 100)`),
      ),
    ).toBe('NM003');
    // other columns of the account still change freely
    await db.query(`UPDATE accounts SET status = 1 WHERE id = $1`, [id]);
    const insert = (
      before: number,
      charge: number,
      after: number,
      type: number = constants.billTypes.adjustment,
    ) =>
      db.query(
        `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance) VALUES ($1, $2, $3, $4, $5)`,
        [id, type, charge, before, after],
      );
    expect(await sqlstate(insert(500, 10, 520))).toBe('23514'); // after = before + charge
    expect(await sqlstate(insert(400, 10, 410))).toBe('NM002'); // not the balance it has
    expect(await sqlstate(insert(500, -600, -100, constants.billTypes.sms))).toBe('NM001'); // below zero
    expect(await sqlstate(insert(500, 10, 510, 77))).toBe('23503'); // unknown bill type
    expect(await sqlstate(db.query(`UPDATE ledger SET charge = 0 WHERE account_id = $1`, [id]))).toBe(
      'NM004',
    );
    expect(await sqlstate(db.query(`DELETE FROM ledger WHERE account_id = $1`, [id]))).toBe('NM004');
    // a row written right moves the balance with it
    await insert(500, 25, 525);
    expect(await balanceOf(id)).toBe(525);
  });

  it.runIf(testDbKind === 'pglite')(
    'refuses at once a statement outside the open transaction (it would wait for it forever on PGlite)',
    async () => {
      await expect(db.tx(async () => rawQuery(db.q, 'SELECT 1'))).rejects.toThrow(
        /outside the open transaction/,
      );
      // and the connection is fine afterwards
      expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    },
  );
});

type Op = { account: number; kind: 'charge' | 'refund' | 'credit'; amount: number; key: number | null };

describe(`random concurrent charges, refunds and credits keep the books (${testDbKind})`, () => {
  it('sum of bills = balance, no key applied twice, no balance below zero, every bill follows the one before', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()];
    let run = 0;
    const op = fc.record<Op>({
      account: fc.integer({ min: 0, max: accounts.length - 1 }),
      kind: fc.constantFrom('charge', 'refund', 'credit'),
      amount: fc.integer({ min: 1, max: 3000 }),
      key: fc.option(fc.integer({ min: 0, max: 7 }), { nil: null }),
    });
    const types = {
      charge: constants.billTypes.sms,
      refund: constants.billTypes.refund,
      credit: constants.billTypes.recharge,
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        run++;
        const results = await Promise.all(
          ops.map(async (o) => {
            const accountId = accounts[o.account]!;
            // a key names one change: the same key always has the same account and bill type
            const key = o.key === null ? undefined : idemKey('msg', accountId, `r${run}-${o.kind}-${o.key}`);
            try {
              const { applied } = await db.tx((tx) =>
                ledger.apply(
                  tx,
                  testBill(
                    accountId,
                    types[o.kind],
                    minor(o.kind === 'charge' ? -o.amount : o.amount) as Minor,
                    key,
                  ),
                ),
              );
              return { key, applied, refused: false };
            } catch (err) {
              if ((err as { retcode?: number }).retcode === 400001 && o.kind === 'charge')
                return { key, applied: false, refused: true };
              throw err;
            }
          }),
        );
        // each key of this run was applied at most once, and a refused charge wrote nothing
        const appliedKeys = results.filter((r) => r.key && r.applied).map((r) => r.key);
        expect(new Set(appliedKeys).size).toBe(appliedKeys.length);
        for (const accountId of accounts) {
          const [books] = await db.query<{ sum: number; balance: number; negative: number }>(
            `SELECT COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = $1), 0)::bigint AS sum,
                    (SELECT balance FROM accounts WHERE id = $1) AS balance,
                    (SELECT count(*) FROM ledger WHERE account_id = $1 AND after_balance < 0)::int AS negative`,
            [accountId],
          );
          expect(books!.sum).toBe(books!.balance);
          expect(books!.balance).toBeGreaterThanOrEqual(0);
          expect(books!.negative).toBe(0);
          const chain = await db.query<{ before: number; after: number }>(
            `SELECT before_balance AS before, after_balance AS after FROM ledger WHERE account_id = $1 ORDER BY id`,
            [accountId],
          );
          chain.forEach((row, i) => expect(row.before).toBe(i === 0 ? 0 : chain[i - 1]!.after));
        }
        const twice = await db.query(
          `SELECT idempotency_key FROM ledger WHERE idempotency_key IS NOT NULL GROUP BY 1 HAVING count(*) > 1`,
        );
        expect(twice).toEqual([]);
      }),
      { numRuns: testDbKind === 'pglite' ? 30 : 40 },
    );
  });
});
