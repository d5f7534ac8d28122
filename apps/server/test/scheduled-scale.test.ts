import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock';
import { startTestApp, testDbKind, type TestApp } from './helpers';

/**
 * Scheduled messages at scale (issue 22 §2; the team's standard for work over due rows: 10,000 rows).
 * N scheduled messages of N/10 accounts, all due at once, with the job each schedule writes: one
 * drain sends every one through the send path, each stored and billed once, the ledger invariant
 * holds, and a second drain finds nothing. The rows are written by one statement per table
 * (generate_series). SCHEDULED_AT_SCALE sets N (default 10,000 on PostgreSQL, 2,000 on PGlite;
 * `SCHEDULED_AT_SCALE=10000` proves PGlite at 10,000 too: docs/decisions.md "Scheduled messages").
 */
const N = Number(process.env.SCHEDULED_AT_SCALE ?? (testDbKind === 'postgres' ? 10_000 : 2_000));
const PER_ACCOUNT = 10;
const clock = new ManualClock(Date.parse('2026-06-01T08:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  // the caches as in production (5 s; the other suites turn them off to see hand-made changes at
  // once): a webhook endpoint lookup per account, not two per message
  t = await startTestApp({ clock, envOverrides: { SESSION_CACHE_MS: '5000' } });
});
afterAll(async () => {
  await t?.close();
});

async function seed(count: number, sendAt: Date) {
  const accounts = Math.ceil(count / PER_ACCOUNT);
  await t.db.query(
    `INSERT INTO accounts (brand, email)
     SELECT 'numa', 'sched-' || g || '@scale.test' FROM generate_series(1, $1::int) g`,
    [accounts],
  );
  await t.db.query(
    `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance, options)
     SELECT id, 9, 100000, 0, 100000, '{"campaignName":"scale"}' FROM accounts WHERE email LIKE 'sched-%'`,
  );
  // account k holds +1 202 5k (k < 100,000) and texts +1 212 5k (off the platform), its 10 messages
  await t.db.query(
    `INSERT INTO virtual_numbers (account_id, tel_code, number, full_number, country, plan_id, payment_date, month_rent)
     SELECT a.id, '1', '2025' || lpad(a.k::text, 6, '0'), '12025' || lpad(a.k::text, 6, '0'), 'US', 0, '2026-07-01', 0
       FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM accounts WHERE email LIKE 'sched-%') a`,
  );
  await t.db.query(
    `INSERT INTO scheduled_messages (account_id, brand, own_full_number, other_full_number, text, send_at)
     SELECT v.account_id, 'numa', v.full_number, '12125' || substr(v.full_number, 6), 'scheduled ' || g, $1::timestamptz
       FROM virtual_numbers v CROSS JOIN generate_series(1, $2::int) g
      WHERE v.full_number LIKE '12025%'`,
    [sendAt, PER_ACCOUNT],
  );
  // the job each schedule writes with its row (payload and dedupe key as services/scheduled.ts)
  await t.db.query(
    `INSERT INTO jobs (name, payload, run_at, max_attempts, dedupe_key)
     SELECT 'chats.scheduled', jsonb_build_object('id', s.id, 'version', s.version), s.send_at, 5,
            'sched:' || s.id || ':' || s.version
       FROM scheduled_messages s WHERE s.own_full_number LIKE '12025%'`,
  );
  await t.db.query('ANALYZE accounts, ledger, virtual_numbers, scheduled_messages, jobs');
}

describe(`scheduled messages at scale (${testDbKind}, ${N} due)`, () => {
  it(
    'one drain sends every due message once, each billed once; a second drain sends nothing',
    async () => {
      const sendAt = new Date(clock.now() + 60_000);
      await seed(N, sendAt);
      clock.set(sendAt.getTime() + 1);
      const started = performance.now();
      await t.app.deps.jobs.drain();
      const ms = performance.now() - started;
      console.warn(`${N} scheduled messages sent in ${(ms / 1000).toFixed(1)} s (${testDbKind})`);

      const [r] = await t.db.query<{ sent: number; other: number; msgs: number; bills: number; dup: number }>(
        `SELECT
           (SELECT count(*)::int FROM scheduled_messages WHERE own_full_number LIKE '12025%' AND status = 'sent') AS sent,
           (SELECT count(*)::int FROM scheduled_messages WHERE own_full_number LIKE '12025%' AND status <> 'sent') AS other,
           (SELECT count(*)::int FROM messages WHERE own_full_number LIKE '12025%' AND sms_id LIKE 'sch-%') AS msgs,
           (SELECT count(*)::int FROM ledger l JOIN accounts a ON a.id = l.account_id
             WHERE a.email LIKE 'sched-%' AND l.type = 2) AS bills,
           (SELECT count(*)::int FROM (SELECT account_id, sms_id FROM messages WHERE sms_id LIKE 'sch-%'
             GROUP BY 1, 2 HAVING count(*) > 1) d) AS dup`,
      );
      expect(r).toEqual({ sent: N, other: 0, msgs: N, bills: N, dup: 0 });
      const [broken] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM accounts a
          WHERE a.email LIKE 'sched-%'
            AND a.balance <> COALESCE((SELECT sum(charge) FROM ledger WHERE account_id = a.id), 0)`,
      );
      expect(broken!.n).toBe(0);

      clock.advance(3_600_000);
      await t.app.deps.jobs.drain();
      const [again] = await t.db.query<{ bills: number }>(
        `SELECT count(*)::int AS bills FROM ledger l JOIN accounts a ON a.id = l.account_id
          WHERE a.email LIKE 'sched-%' AND l.type = 2`,
      );
      expect(again!.bills).toBe(N);
    },
    30 * 60_000,
  );
});
