import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedAdmin, testDbKind } from './helpers';

/** The operator's number commands and the demo seed, against an embedded database of their own. */
let admin: Awaited<ReturnType<typeof embeddedAdmin>>;
beforeAll(async () => {
  admin = await embeddedAdmin(
    'numa-numbers-',
    `INSERT INTO accounts (brand, email) VALUES ('numa', 'holder@example.com'), ('numa', 'other@example.com'), ('wephone', 'holder@example.com')`,
  );
  process.env.NODE_ENV = 'development';
});
afterAll(() => admin.close());

const run = (...argv: string[]) => admin.run(...argv);

// these run the command on an embedded database of their own whatever the project: the same run
// under server-pg would only repeat the one under server
const embeddedOnly = testDbKind === 'postgres';

describe.skipIf(embeddedOnly)('npm run admin -- number …', () => {
  it('assigns, lists and releases numbers', async () => {
    expect((await run('help')).text).toContain('number assign');
    const assigned = await run(
      'number',
      'assign',
      'holder@example.com',
      '+1 (415) 555-0801',
      '--plan-id',
      '3',
      '--rent',
      '4.09',
    );
    expect(assigned).toMatchObject({ code: 0 });
    expect(assigned.text).toMatch(
      /^\+14155550801 \(US\) now belongs to account \d+; next rent date \d{4}-\d{2}-\d{2}$/,
    );
    expect((await run('number', 'assign', 'holder@example.com', '+18005550802')).text).toContain(
      '(US, toll-free)',
    );
    const list = await run('number', 'list', 'holder@example.com');
    expect(list.text.split('\n')).toEqual([
      expect.stringMatching(/^\+14155550801 {2}US {2}plan 3 {2}rent 4\.0900 {2}next /),
      expect.stringMatching(/^\+18005550802 {2}US toll-free \(not verified\) {2}plan 0 {2}rent 0\.0000/),
    ]);
    expect((await run('number', 'release', '+18005550802')).text).toMatch(
      /^\+18005550802 released from account \d+$/,
    );
    expect((await run('number', 'list', 'holder@example.com')).text.split('\n')).toHaveLength(1);
    expect((await run('number', 'list', 'holder@example.com', '--brand', 'wephone')).text).toMatch(
      /holds no number/,
    );
  });

  it('refuses numbers that are invalid or held by someone else, unknown accounts and bad flags', async () => {
    const held = await run('number', 'assign', 'other@example.com', '+14155550801');
    expect(held.code).toBe(1);
    expect(held.error).toMatch(/held by account \d+/);
    // a number is one account's across brands too
    expect(
      (await run('number', 'assign', 'holder@example.com', '+14155550801', '--brand', 'wephone')).error,
    ).toMatch(/held by account/);
    expect((await run('number', 'assign', 'other@example.com', '+1123')).error).toMatch(
      /not a valid phone number/,
    );
    expect((await run('number', 'assign', 'nobody@example.com', '+14155550803')).error).toMatch(
      /No numa account/,
    );
    expect((await run('number', 'assign', 'other@example.com', '+14155550803', '--rent', '-1')).code).toBe(1);
    expect((await run('number', 'assign', 'other@example.com', '+14155550803', '--plan-id', 'x')).code).toBe(
      1,
    );
    expect((await run('number', 'release', '+14155550899')).error).toMatch(/No account holds/);
  });
});

describe.skipIf(embeddedOnly)('npm run admin -- demo seed', () => {
  it('creates the two demo accounts with a US number and 20 Coins, once', async () => {
    const first = await run('demo', 'seed');
    expect(first.code).toBe(0);
    expect(first.text).toMatch(/demo1@numa\.test: account \d+, number \+1415555010\d, balance 20 Coins/);
    expect(first.text).toMatch(/demo2@numa\.test: account \d+, number \+1415555010\d, balance 20 Coins/);
    const again = await run('demo', 'seed');
    expect(again.text.replace(/bill #\d+/g, '')).toBe(first.text.replace(/bill #\d+/g, ''));
    const shown = await run('account', 'show', 'demo1@numa.test');
    expect(shown.text).toContain('balance  20.0000 Coins');
    expect(shown.text).toMatch(/type 9 \+20\.0000 → 20\.0000/);
    // the command as an operator runs it, opening the database folder itself
    const listed = await admin.runLocal('number', 'list', 'demo2@numa.test');
    expect(listed).toMatchObject({ code: 0, error: '' });
    expect(listed.text).toMatch(/^\+1415555010\d {2}US/);
  });
});

describe('dev start on a new database', () => {
  it('seeds the demo accounts, and only when the database has no account yet', async () => {
    const { openTestDb, testEnv } = await import('./helpers');
    const { buildApp } = await import('../src/app');
    const { SimulatedMail } = await import('../src/providers/mail/simulator');
    const db = await openTestDb();
    try {
      const app = await buildApp({
        env: testEnv({ NODE_ENV: 'development' }),
        db,
        mail: new SimulatedMail(),
      });
      await app.close();
      const rows = await db.query<{ email: string; balance: number; numbers: number }>(
        `SELECT email, balance, (SELECT count(*)::int FROM virtual_numbers v WHERE v.account_id = a.id) AS numbers
           FROM accounts a ORDER BY email`,
      );
      expect(rows).toEqual([
        { email: 'demo1@numa.test', balance: 200_000, numbers: 1 },
        { email: 'demo2@numa.test', balance: 200_000, numbers: 1 },
      ]);
      await db.query(`DELETE FROM virtual_numbers`);
      const again = await buildApp({
        env: testEnv({ NODE_ENV: 'development' }),
        db,
        mail: new SimulatedMail(),
      });
      await again.close();
      expect(await db.query(`SELECT 1 FROM virtual_numbers`)).toHaveLength(0);
    } finally {
      await db.drop();
    }
  });
});
