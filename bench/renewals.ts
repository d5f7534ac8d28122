/**
 * `npm run bench:renewals`: the renewal sweep at scale against a baseline measured in the same run, on
 * the same machine and database (issue 18 item 6).
 *
 * For each N (1,000 and 10,000; BENCH_RENEWALS="1000,10000"), N rented numbers due at once (10 per
 * account, an account's numbers spread over the due order; test/fixtures/renewals.ts writes them with
 * one statement per table) are renewed by one run of the sweep (`runRenewals`: the hourly sweep job
 * enqueues a `numbers.renew` job per due number, a page of due rows per statement, and the workers run
 * them; each renewal is its own transaction: the bill through the ledger, the number and subscription
 * moved a period on, the history entry). The baseline is ONE SQL UPDATE of the same rows that moves
 * their payment date a month on (the least any renewal does, without a bill, a history entry or a
 * job), median of 5. A run of 200 first (not reported) prepares the statements and warms the JIT.
 *
 * Reported: wall time and this process's CPU time (PGlite runs in it; under a loaded machine the CPU
 * figure moves less than the wall time), per number, the ratio sweep / UPDATE at each N, and the
 * growth from the smallest to the largest N divided by the growth of N (1.0 is linear).
 * The database is the embedded PGlite that `npm start` uses, or PostgreSQL with BENCH_DATABASE_URL.
 * Results: bench/results/renewals.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app';
import { raw } from '../apps/server/src/db/raw';
import { loadEnv } from '../apps/server/src/env';
import { ManualClock } from '../apps/server/src/lib/clock';
import { SimulatedMail } from '../apps/server/src/providers/mail/simulator';
import { seedRentedNumbers } from '../apps/server/test/fixtures/renewals';
import { openDb } from './support';

const SIZES = (process.env.BENCH_RENEWALS ?? '1000,10000').split(',').map(Number);
const PER_ACCOUNT = 10;
const DUE = '2026-03-10';

const cpuMs = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);
const r2 = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const { db, dataDir, cleanup } = await openDb('renewals');
  const clock = new ManualClock(Date.parse(`${DUE}T00:30:00Z`));
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    STT: 'none',
  });
  const app = await buildApp({ env, db, mail: new SimulatedMail(), clock });
  await app.ready();
  console.log(
    `Renewals bench — ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}\n`,
  );

  const rows: {
    n: number;
    sweep: { wallMs: number; cpuMs: number };
    update: { wallMs: number; cpuMs: number };
  }[] = [];
  // warm-up (not reported): the first renewals prepare their statements and warm the JIT
  await seedRentedNumbers(db.q, {
    prefix: '3999',
    count: 200,
    perAccount: PER_ACCOUNT,
    balance: 1_000_000,
    due: DUE,
  });
  await app.deps.subscriptions.runRenewals();

  for (const [i, n] of SIZES.entries()) {
    const prefix = String(4000 + i);
    await seedRentedNumbers(db.q, {
      prefix,
      count: n,
      perAccount: PER_ACCOUNT,
      balance: 1_000_000,
      due: DUE,
    });
    // the same instant for every size: each size's rows are the only ones due (the earlier ones moved on)
    clock.set(Date.parse(`${DUE}T00:30:00Z`) + (i + 1) * 3_600_000);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await app.deps.subscriptions.runRenewals();
    const sweep = { wallMs: Math.round(performance.now() - t0), cpuMs: cpuMs(process.cpuUsage(c0)) };
    const [check] = await raw<{ bills: number; due: number }>(
      db.q,
      `SELECT (SELECT count(*)::int FROM ledger l JOIN virtual_numbers v ON v.full_number = l.options->>'number'
                WHERE l.type = 5 AND v.full_number LIKE '1' || $1 || '%') AS bills,
              (SELECT count(*)::int FROM virtual_numbers WHERE payment_date <= $2::date) AS due`,
      [prefix, DUE],
    );
    if (check!.bills !== n || check!.due !== 0)
      throw new Error(`sweep of ${n}: ${check!.bills} bills, ${check!.due} still due`);

    // the baseline: one UPDATE of the same rows (a month on, then back, so every try moves n rows)
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let k = 0; k < 5; k++) {
      const u0 = process.cpuUsage();
      const s0 = performance.now();
      await raw(
        db.q,
        `UPDATE virtual_numbers SET payment_date = payment_date + ${k % 2 ? '-' : ''}interval '1 month'
          WHERE full_number LIKE '1' || $1 || '%'`,
        [prefix],
      );
      walls.push(performance.now() - s0);
      cpus.push((process.cpuUsage(u0).user + process.cpuUsage(u0).system) / 1000);
    }
    const update = { wallMs: r2(median(walls)), cpuMs: r2(median(cpus)) };
    rows.push({ n, sweep, update });
  }
  await app.close();
  await cleanup();

  // this process's CPU: on PGlite the database's work too; on PostgreSQL only the server's side
  const inProcess = !process.env.BENCH_DATABASE_URL;
  console.log(
    `${'N'.padStart(7)} ${'sweep ms'.padStart(10)} ${'cpu ms'.padStart(8)} ${'per number'.padStart(11)} ${'UPDATE ms'.padStart(10)} ${'cpu ms'.padStart(8)} ${'ratio'.padStart(8)}${inProcess ? ` ${'cpu ratio'.padStart(10)}` : ''}`,
  );
  for (const r of rows)
    console.log(
      `${r.n.toLocaleString('en').padStart(7)} ${String(r.sweep.wallMs).padStart(10)} ${String(r.sweep.cpuMs).padStart(8)} ${`${r2(r.sweep.wallMs / r.n)} ms`.padStart(11)} ${String(r.update.wallMs).padStart(10)} ${String(r.update.cpuMs).padStart(8)} ${`${Math.round(r.sweep.wallMs / r.update.wallMs)}×`.padStart(8)}${inProcess ? ` ${`${Math.round(r.sweep.cpuMs / Math.max(r.update.cpuMs, 0.01))}×`.padStart(10)}` : ''}`,
    );
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const growth = {
    n: last.n / first.n,
    sweepWall: r2(last.sweep.wallMs / first.sweep.wallMs / (last.n / first.n)),
    sweepCpu: r2(last.sweep.cpuMs / first.sweep.cpuMs / (last.n / first.n)),
    update: r2(last.update.wallMs / first.update.wallMs / (last.n / first.n)),
  };
  if (rows.length > 1)
    console.log(
      `\ngrowth ${first.n.toLocaleString('en')} → ${last.n.toLocaleString('en')} (×${growth.n}), divided by ×${growth.n} (1.0 = linear): sweep ${growth.sweepWall} (cpu ${growth.sweepCpu}), UPDATE ${growth.update}`,
    );

  const here = path.dirname(fileURLToPath(import.meta.url));
  mkdirSync(path.join(here, 'results'), { recursive: true });
  writeFileSync(
    path.join(here, 'results', 'renewals.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        load: os.loadavg()[0],
        database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        perAccount: PER_ACCOUNT,
        rows,
        growth,
      },
      null,
      2,
    ),
  );
}

await main();
