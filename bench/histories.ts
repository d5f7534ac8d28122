/**
 * `npm run bench:histories`: the month histories at scale against the bare SQL of the same page,
 * measured in the same run on the same database (issue 24 §4, "histories flat at scale").
 *
 * For each history and each N (1,000, 10,000 and 100,000 rows in one month; BENCH_HISTORIES_SIZES
 * = "1000,10000,100000", BENCH_HISTORIES = a comma list of the names below to run some only), one
 * account gets N rows of that history in March 2026 (one statement, INSERT … SELECT generate_series),
 * and as noise N/10 more in February and N/2 spread over five other accounts in March. Then the route
 * is requested through the real app (app.inject, with the account's session, the page size the web
 * client asks for) and, interleaved with it, the statement of the same page that the repository runs
 * (captured from the repository's own read: the same text and parameters) straight on the same
 * connection. Where the database serializes the page (the page-numbered histories: one statement
 * gives the month's total and the page as JSON text), that statement is the bare SQL.
 *
 *   payments       GET /web/getPaymentList       (page 1 of 1000; totalRows)      ledger, recharges
 *   bills          GET /web/getBillList          (first page of 200; cursor)      ledger, four types
 *   sms            GET /web/getNormalSmsList     (page 1 of 200; totalRows)       messages
 *   calls          GET /web/getCallList          (page 1 of 200; totalRows)       call_records
 *   numbers        GET /web/getSubscriptionList  (page 1 of 200; totalRows)       rental_history (number)
 *   codeNumbers    GET /web/getSubCodeNumberList (first page of 200; cursor)      rental_history (code_number)
 *
 * Reported per history and N: p50 and p90 of each (BENCH_HISTORIES_REQUESTS samples, 100 by default,
 * after 20 not counted), the ratio route / SQL at p50, and its growth from the smallest to the largest
 * N (1.0 = flat). The goal (issue 24): ratio ≤ 1.5 and flat, on both databases.
 * The database is the embedded PGlite that `npm start` uses, or PostgreSQL with BENCH_DATABASE_URL.
 * Results: bench/results/histories-latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { constants } from '@numa/contract';
import type { CompiledQuery } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import type { Database, Q } from '../apps/server/src/db';
import { raw } from '../apps/server/src/db/raw';
import { loadEnv } from '../apps/server/src/env';
import { SimulatedMail } from '../apps/server/src/providers/mail/simulator';
import { callsRepo } from '../apps/server/src/repositories/calls';
import { historyRepo } from '../apps/server/src/repositories/payments';
import { rentalsRepo } from '../apps/server/src/repositories/rentals';
import { subscriptionsRepo } from '../apps/server/src/repositories/subscriptions';
import { makeAccount, openDb } from './support';

const SIZES = (process.env.BENCH_HISTORIES_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REQUESTS = Number(process.env.BENCH_HISTORIES_REQUESTS ?? 100);
const WARMUP = 20;
const YM = '2026-03';
const FROM = Date.UTC(2026, 2, 1);
const TO = Date.UTC(2026, 3, 1);
const PREV = Date.UTC(2026, 1, 1);
const NOISE_ACCOUNTS = 5;

const r2 = (x: number) => Math.round(x * 100) / 100;
function pct(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

/** One history: how its rows are written, which route reads it, and the page's SQL. */
interface History {
  name: string;
  /** writes n rows of the history for the account, spread over [from, to) */
  seed(db: Database, accountId: number, n: number, from: number, to: number): Promise<void>;
  url: string;
  query: Record<string, string>;
  /** the repository's read of the page that the route makes (its statement is captured and run bare) */
  read(q: Q, accountId: number): Promise<unknown>;
}

/** Ledger rows after the account's balance, each moving it from exactly its before_balance (migration 006). */
async function seedLedger(
  db: Database,
  accountId: number,
  n: number,
  from: number,
  to: number,
  mix: 'recharges' | 'bills',
) {
  const [acc] = await raw<{ balance: number }>(db.q, 'SELECT balance FROM accounts WHERE id = $1', [
    accountId,
  ]);
  const step = (to - from) / (n + 1);
  // bills: a recharge, then an SMS, a call and a number's rent out of it, over and over
  const type =
    mix === 'recharges' ? '1' : `(CASE i % 4 WHEN 0 THEN 1 WHEN 1 THEN 2 WHEN 2 THEN 4 ELSE 5 END)`;
  const charge = mix === 'recharges' ? '100000' : `(CASE i % 4 WHEN 0 THEN 100000 ELSE -100 END)`;
  // the balance trigger (one UPDATE of the account per row, each after the last version of the row:
  // minutes at 100,000 rows) is off while the rows go in; the balance is moved once after them
  await db.tx(async (tx) => {
    await raw(tx, 'ALTER TABLE ledger DISABLE TRIGGER ledger_moves_balance');
    await raw(tx, 'ALTER TABLE accounts DISABLE TRIGGER accounts_balance_guard');
    await raw(
      tx,
      `INSERT INTO ledger (account_id, type, charge, before_balance, after_balance, options, created_at)
       SELECT $1, t, c, $2::bigint + s - c, $2::bigint + s,
              CASE WHEN t = 1 THEN jsonb_build_object('amount', 10, 'gift', 0, 'purchaseMethod', 'creditCard', 'orderId', (900000000 + i)::text)
                   ELSE jsonb_build_object('number', '14155550100') END,
              to_timestamp(($3::bigint + (i * $4::double precision)::bigint) / 1000.0)
         FROM (SELECT i, t, c, sum(c) OVER (ORDER BY i) AS s
                 FROM (SELECT i, ${type}::smallint AS t, ${charge}::bigint AS c FROM generate_series(1, $5::int) i) x) y
        ORDER BY i`,
      [accountId, acc!.balance, from, step, n],
    );
    await raw(
      tx,
      `UPDATE accounts SET balance = (SELECT after_balance FROM ledger WHERE account_id = $1 ORDER BY id DESC LIMIT 1)
        WHERE id = $1`,
      [accountId],
    );
    await raw(tx, 'ALTER TABLE accounts ENABLE TRIGGER accounts_balance_guard');
    await raw(tx, 'ALTER TABLE ledger ENABLE TRIGGER ledger_moves_balance');
  });
}

/**
 * The statement a repository's read runs (its first), as the database gets it: text and parameters,
 * taken where every statement passes (the executor's `executeQuery`, given the compiled query whether
 * the read built it now or keeps it compiled, db/prepared.ts), so the bare run is that text.
 */
async function statementOf(q: Q, read: (q: Q) => Promise<unknown>): Promise<CompiledQuery> {
  const executor = q.getExecutor();
  const run = executor.executeQuery.bind(executor);
  let first: CompiledQuery | undefined;
  executor.executeQuery = <R>(compiled: CompiledQuery<R>) => {
    first ??= compiled as CompiledQuery;
    return run(compiled);
  };
  try {
    await read(q);
  } finally {
    executor.executeQuery = run;
  }
  if (!first) throw new Error('the read ran no statement');
  return first;
}

const spread = (n: number, from: number, to: number) => [from, (to - from) / (n + 1)] as const;

const histories: History[] = [
  {
    name: 'payments',
    seed: (db, a, n, from, to) => seedLedger(db, a, n, from, to, 'recharges'),
    url: '/web/getPaymentList',
    query: { date: YM, pageNo: '1', pageSize: String(constants.pageSize.payment) },
    read: (q, a) => historyRepo.payments(q, a, new Date(FROM), new Date(TO), constants.pageSize.payment, 0),
  },
  {
    name: 'bills',
    seed: (db, a, n, from, to) => seedLedger(db, a, n, from, to, 'bills'),
    url: '/web/getBillList',
    query: { ym: YM, pageSize: String(constants.pageSize.bill) },
    read: (q, a) =>
      historyRepo.billPage(q, {
        accountId: a,
        from: new Date(FROM),
        to: new Date(TO),
        before: null,
        pageSize: constants.pageSize.bill,
      }),
  },
  {
    name: 'sms',
    async seed(db, a, n, f, t) {
      const [from, step] = spread(n, f, t);
      await raw(
        db.q,
        `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code,
                               direction, type, text, status, sms_id, date, charge, segments)
         SELECT $1, '14155550100', '1', '1512' || lpad((i % 500)::text, 7, '0'), '1',
                CASE WHEN i % 2 = 0 THEN 'in' ELSE 'out' END, 'sms', 'bench message ' || i, 0,
                'bench-' || $2::bigint || '-' || i, $2::bigint + (i * $3::double precision)::bigint, 100, 1
           FROM generate_series(1, $4::int) i`,
        [a, from, step, n],
      );
    },
    url: '/web/getNormalSmsList',
    query: { date: YM, pageNo: '1', pageSize: String(constants.pageSize.sms) },
    read: (q, a) => historyRepo.messages(q, a, new Date(FROM), new Date(TO), constants.pageSize.sms, 0),
  },
  {
    name: 'calls',
    async seed(db, a, n, f, t) {
      const [from, step] = spread(n, f, t);
      await raw(
        db.q,
        `INSERT INTO call_records (account_id, direction, from_number, to_number, duration, billing_duration,
                                   tariff_id, type, charge, carrier_id, created_at)
         SELECT $1, CASE WHEN i % 2 = 0 THEN 'in' ELSE 'out' END, '15125550199', '14155550100', 61, 120, 114,
                'voice', 200, 'bench-' || $2::bigint || '-' || i,
                to_timestamp(($2::bigint + (i * $3::double precision)::bigint) / 1000.0)
           FROM generate_series(1, $4::int) i`,
        [a, from, step, n],
      );
    },
    url: '/web/getCallList',
    query: { date: YM, pageNo: '1', pageSize: String(constants.pageSize.call) },
    read: (q, a) =>
      callsRepo.page(q, {
        accountId: a,
        from: new Date(FROM),
        to: new Date(TO),
        limit: constants.pageSize.call,
        offset: 0,
      }),
  },
  {
    name: 'numbers',
    async seed(db, a, n, f, t) {
      const [from, step] = spread(n, f, t);
      await raw(
        db.q,
        `INSERT INTO rental_history (account_id, full_number, tel_code, number, type, created_at)
         SELECT $1, '1415' || lpad((i % 1000)::text, 7, '0'), '1', '415' || lpad((i % 1000)::text, 7, '0'),
                CASE WHEN i % 3 = 0 THEN 1 ELSE 2 END,
                to_timestamp(($2::bigint + (i * $3::double precision)::bigint) / 1000.0)
           FROM generate_series(1, $4::int) i`,
        [a, from, step, n],
      );
    },
    url: '/web/getSubscriptionList',
    query: { date: YM, pageNo: '1', pageSize: String(constants.pageSize.subscription) },
    read: (q, a) =>
      subscriptionsRepo.historyPage(q, {
        accountId: a,
        from: new Date(FROM),
        to: new Date(TO),
        limit: constants.pageSize.subscription,
        offset: 0,
      }),
  },
  {
    name: 'codeNumbers',
    async seed(db, a, n, f, t) {
      const [from, step] = spread(n, f, t);
      await raw(
        db.q,
        `INSERT INTO rental_history (account_id, full_number, app, country, type, next_payment_at, created_at)
         SELECT $1, '1415' || lpad((i % 1000)::text, 7, '0'), 'wa', 'US', CASE WHEN i % 3 = 0 THEN 1 ELSE 2 END,
                to_timestamp(($2::bigint + (i * $3::double precision)::bigint) / 1000.0) + interval '30 days',
                to_timestamp(($2::bigint + (i * $3::double precision)::bigint) / 1000.0)
           FROM generate_series(1, $4::int) i`,
        [a, from, step, n],
      );
    },
    url: '/web/getSubCodeNumberList',
    query: { ym: YM, pageSize: String(constants.pageSize.subscribedNumbers) },
    read: (q, a) =>
      rentalsRepo.codeNumberPage(q, {
        accountId: a,
        from: new Date(FROM),
        to: new Date(TO),
        before: null,
        pageSize: constants.pageSize.subscribedNumbers,
        lang: 'en',
      }),
  },
];

interface Row {
  history: string;
  n: number;
  rows: number;
  totalRows?: number;
  route: { p50: number; p90: number };
  sql: { p50: number; p90: number };
  ratio: number;
}

async function main() {
  const only = process.env.BENCH_HISTORIES?.split(',');
  const chosen = histories.filter((h) => !only || only.includes(h.name));
  const { db, dataDir, cleanup } = await openDb('histories');
  const env = loadEnv({
    NODE_ENV: 'production',
    // production with the simulated providers: a demo's opt-in (production is fail-closed, issue 18)
    DEMO_MODE: '1',
    LOG_LEVEL: 'silent',
    VALIDATE_RESPONSES: 'false',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    STT: 'none',
    IP_RATE_LIMIT_FACTOR: '1000',
    // the account's budget of calls would refuse a bench's requests after its burst
    ACCOUNT_CALLS_PER_SECOND: '1000000',
    ACCOUNT_CALLS_BURST: '1000000',
  });
  const app = await buildApp({ env, db, mail: new SimulatedMail() });
  await app.ready();
  const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)';
  console.log(
    `Histories bench — ${database}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}\n`,
  );

  const results: Row[] = [];
  const seedMs: Record<string, number> = {};
  let k = 0;
  for (const n of SIZES) {
    for (const h of chosen) {
      k++;
      const owner = await makeAccount(
        db,
        `h${k}@bench.test`,
        `+1415556${String(k).padStart(4, '0')}`,
        1_000_000,
      );
      const t0 = performance.now();
      await h.seed(db, owner.id, n, FROM, TO);
      // noise: the account's previous month, and other accounts' rows in the same month
      await h.seed(db, owner.id, Math.max(1, Math.round(n / 10)), PREV, FROM);
      for (let j = 0; j < NOISE_ACCOUNTS; j++) {
        const other = await makeAccount(
          db,
          `h${k}n${j}@bench.test`,
          `+1415557${String(k * 10 + j).padStart(4, '0')}`,
          1_000_000,
        );
        await h.seed(db, other.id, Math.max(1, Math.round(n / 2 / NOISE_ACCOUNTS)), FROM, TO);
      }
      seedMs[`${h.name}@${n}`] = Math.round(performance.now() - t0);
      // fresh statistics, as the hourly 'db.analyze' job keeps them
      await raw(db.q, 'ANALYZE');

      const request = async () => {
        const res = await app.inject({
          method: 'GET',
          url: h.url,
          query: { languagecode: 'en', webVersion: 'bench', ...h.query },
          headers: { host: 'localhost', 'auth-token': owner.token },
        });
        if (res.statusCode !== 200)
          throw new Error(`${h.url}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
        return res;
      };
      const statement = await statementOf(db.q, (q) => h.read(q, owner.id));
      const bare = () => raw<Record<string, unknown>>(db.q, statement.sql, statement.parameters);
      const first = (await request()).json() as { retcode: number; data: Record<string, unknown> };
      if (first.retcode !== 0) throw new Error(`${h.url}: ${JSON.stringify(first).slice(0, 200)}`);
      const list = Object.values(first.data).find(Array.isArray) as unknown[];
      const bareRows = await bare();
      // a page the database serializes is one row whose \`list\` is the JSON array
      const sqlRows =
        bareRows.length === 1 && typeof bareRows[0]!.list === 'string'
          ? (JSON.parse(bareRows[0]!.list) as unknown[]).length
          : bareRows.length;
      if (list.length !== sqlRows)
        throw new Error(`${h.name}: the route gave ${list.length} rows, the SQL ${sqlRows}`);
      const total = first.data.totalRows as number | undefined;
      if (total !== undefined && total !== n) throw new Error(`${h.name}: totalRows ${total}, seeded ${n}`);

      for (let i = 0; i < WARMUP; i++) {
        await request();
        await bare();
      }
      const routeMs: number[] = [];
      const sqlMs: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        let s = performance.now();
        await request();
        routeMs.push(performance.now() - s);
        s = performance.now();
        await bare();
        sqlMs.push(performance.now() - s);
      }
      const route = { p50: r2(pct(routeMs, 0.5)), p90: r2(pct(routeMs, 0.9)) };
      const sql = { p50: r2(pct(sqlMs, 0.5)), p90: r2(pct(sqlMs, 0.9)) };
      const row: Row = {
        history: h.name,
        n,
        rows: list.length,
        ...(total !== undefined ? { totalRows: total } : {}),
        route,
        sql,
        ratio: r2(route.p50 / sql.p50),
      };
      results.push(row);
      console.log(
        `${h.name.padEnd(12)} ${n.toLocaleString('en').padStart(8)}  route p50 ${route.p50.toFixed(2).padStart(7)} p90 ${route.p90.toFixed(2).padStart(7)}   SQL p50 ${sql.p50.toFixed(2).padStart(7)} p90 ${sql.p90.toFixed(2).padStart(7)}   ${row.ratio.toFixed(2)}×   (seeded in ${seedMs[`${h.name}@${n}`]} ms)`,
      );
    }
  }
  await app.close();
  await cleanup();

  // the ratio's growth from the smallest N to the largest (1.0: flat)
  const growth: Record<string, number> = {};
  console.log('');
  for (const h of chosen) {
    const rs = results.filter((r) => r.history === h.name);
    if (rs.length < 2) continue;
    growth[h.name] = r2(rs[rs.length - 1]!.ratio / rs[0]!.ratio);
    console.log(
      `${h.name.padEnd(12)} ratio ${rs.map((r) => `${r.ratio.toFixed(2)}×`).join(' → ')}  (growth ${growth[h.name]!.toFixed(2)}; route p50 ${rs.map((r) => r.route.p50.toFixed(2)).join(' → ')} ms)`,
    );
  }

  const here = path.dirname(fileURLToPath(import.meta.url));
  mkdirSync(path.join(here, 'results'), { recursive: true });
  writeFileSync(
    path.join(here, 'results', 'histories-latest.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        load: os.loadavg().map(r2),
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        requests: REQUESTS,
        month: YM,
        results,
        growth,
        seedMs,
      },
      null,
      2,
    ),
  );
}

await main();
