import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { seedKeptCodeNumbers, seedRentedNumbers } from './fixtures/renewals';
import { startTestApp, testDbKind, type TestApp } from './helpers';
import { until } from './chat-support';

/**
 * The rentals engine (issue 19): one sweep over the due rows of both kinds. A kept verification
 * number renews by the job enqueued for the end of its month; when that job is lost, the sweep
 * enqueues it again (same job, same key), and a sweep never charges a rental twice.
 */
let t: TestApp;
// an hour before the kept numbers' month ends: the jobs the seed writes are not due while it runs
// (were they, the app's own poller could renew them before the test deletes them, and the test would
// delete the next month's jobs instead; CI saw that under load)
const clock = new ManualClock(Date.parse('2026-03-12T07:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});

describe(`rentals engine (${testDbKind})`, () => {
  it('one sweep renews both kinds; a kept number whose job was lost renews all the same, once', async () => {
    const due = new Date('2026-03-12T08:00:00Z');
    const { rent } = await seedKeptCodeNumbers(t.db.q, {
      prefix: '3036',
      count: 20,
      perAccount: 5,
      balance: 100_000,
      due,
    });
    const { price } = await seedRentedNumbers(t.db.q, {
      prefix: '2026',
      count: 10,
      perAccount: 5,
      balance: 1_000_000,
      due: '2026-03-12',
    });
    // the kept numbers' jobs are lost (a restore from a backup without the queue, say)
    await t.db.query(`DELETE FROM jobs WHERE name = 'codes.renew'`);
    clock.set(due.getTime() + 60_000);

    await t.app.deps.subscriptions.runRenewals();
    await t.app.deps.subscriptions.runRenewals();

    // the renewal jobs the sweep enqueued run on the app's own workers, after the sweep returns:
    // the books are read once they are done (polled with a deadline)
    const read = async () => {
      const [row] = await t.db.query(
        `SELECT
         (SELECT count(*)::int FROM rentals WHERE kind = 'code_number' AND valid_until = '2026-04-12T08:00:00Z') AS codes,
         (SELECT count(*)::int FROM rentals WHERE kind = 'number' AND valid_until = '2026-04-12T00:00:00Z') AS numbers,
         (SELECT count(*)::int FROM ledger WHERE type = 5 AND options ? 'app') AS "codeBills",
         (SELECT count(*)::int FROM ledger WHERE type = 5 AND NOT options ? 'app') AS "numberBills",
         (SELECT count(*)::int FROM rental_history h JOIN ledger l ON l.id = h.ledger_id
           WHERE h.type = 2 AND l.charge = h.charge) AS history,
         (SELECT count(*)::int FROM jobs WHERE name = 'codes.renew' AND run_at = '2026-04-12T08:00:00Z') AS "nextJobs",
         (SELECT sum(balance)::bigint FROM accounts WHERE email LIKE '3036-%') AS "codeBalances"`,
      );
      return row;
    };
    let r = await read();
    await until(async () => {
      r = await read();
      return r.nextJobs === 20 && r.codeBills === 20 && r.numberBills === 10;
    }, 20_000).catch(() => undefined);
    expect({ ...r, codeBalances: Number(r.codeBalances) }).toEqual({
      codes: 20,
      numbers: 10,
      codeBills: 20,
      numberBills: 10,
      history: 30,
      nextJobs: 20,
      codeBalances: 4 * 100_000 - 20 * rent,
    });
    expect(price).toBeGreaterThan(0);
  });
});
