import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createJobs, PermanentJobError, type Jobs } from '../src/jobs';
import { ManualClock } from '../src/lib/clock';
import { idemKey } from '../src/lib/idem';
import { jobsRepo } from '../src/repositories/jobs';
import { registerPurges, retention } from '../src/services/purges';
import { openTestDb, rawQuery, testDbKind, type TestDb } from './helpers';

declare module '../src/jobs/types' {
  interface JobPayloads {
    'test.count': { n: number };
    'test.flaky': { failures: number };
    'test.permanent': Record<string, never>;
    'test.slow': Record<string, never>;
    'test.tick': Record<string, never>;
  }
}

/**
 * The jobs queue on a real database: each job once across workers, retries with backoff on the app
 * clock (tests move it, never sleep through a period), schedules once per period, leases a dead
 * worker loses and a live one keeps, jobs born claimed, purges.
 */
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
let db: TestDb;
const workers: Jobs[] = [];
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await db?.drop();
});

const fast = { leaseMs: 5_000, heartbeatMs: 20, pollMs: 10_000, stopGraceMs: 100 };
function worker(clock: ManualClock, setup: (j: Jobs) => void) {
  const j = createJobs({ db, clock, log, options: fast });
  setup(j);
  workers.push(j);
  return j;
}

async function until<T>(check: () => Promise<T | false | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const waiting = async (name: string) =>
  (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE name = $1 AND failed_at IS NULL`,
      [name],
    )
  )[0]!.n;

describe(`jobs (${testDbKind})`, () => {
  it('runs each job once across two workers draining at once', async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const setup = (j: Jobs) =>
      j.define('test.count', async ({ n }) => {
        seen.push(n);
        await new Promise((r) => setImmediate(r));
      });
    const a = worker(clock, setup);
    const b = worker(clock, setup);
    for (let n = 0; n < 120; n++) await a.enqueue(db.q, 'test.count', { n });
    const [ra, rb] = await Promise.all([a.drain(), b.drain()]);
    expect(ra + rb).toBe(120);
    expect(seen.sort((x, y) => x - y)).toEqual([...Array(120).keys()]);
    expect(await waiting('test.count')).toBe(0);
  });

  it('waits for runAt on the app clock, and keeps one waiting job per dedupe key', async () => {
    const clock = new ManualClock();
    let runs = 0;
    const j = worker(clock, (w) =>
      w.define('test.tick', async () => {
        runs++;
      }),
    );
    const key = idemKey('schedule', 'test', 1);
    const first = await j.enqueue(db.q, 'test.tick', {}, { runAt: clock.now() + 60_000, dedupeKey: key });
    const second = await j.enqueue(db.q, 'test.tick', {}, { runAt: clock.now() + 60_000, dedupeKey: key });
    expect(second).toEqual({ id: first.id, created: false });
    expect(await j.drain()).toBe(0);
    clock.advance(60_000);
    expect(await j.drain()).toBe(1);
    expect(runs).toBe(1);
    // done: the key is free again
    expect((await j.enqueue(db.q, 'test.tick', {}, { runAt: clock.now() + 1, dedupeKey: key })).created).toBe(
      true,
    );
  });

  it('enqueues many in one statement: keys already waiting add nothing, and only what was added counts', async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const j = worker(clock, (w) =>
      w.define('test.count', async ({ n }) => {
        seen.push(n);
      }),
    );
    const item = (n: number) => ({ payload: { n }, dedupeKey: idemKey('schedule', 'many', n) });
    const later = { runAt: clock.now() + 1_000 };
    expect(await j.enqueueMany(db.q, 'test.count', [1, 2, 3].map(item), later)).toBe(3);
    expect(await j.enqueueMany(db.q, 'test.count', [2, 3, 4].map(item), later)).toBe(1);
    expect(await j.enqueueMany(db.q, 'test.count', [], later)).toBe(0);
    clock.advance(1_000);
    expect(await j.drain()).toBe(4);
    expect(seen.sort()).toEqual([1, 2, 3, 4]);
  });

  it('retries with backoff, then fails for good and calls onFailed once', async () => {
    const clock = new ManualClock();
    const tries: number[] = [];
    const failed: string[] = [];
    const j = worker(clock, (w) =>
      w.define(
        'test.flaky',
        async ({ failures }, ctx) => {
          tries.push(ctx.attempt);
          if (ctx.attempt <= failures) throw new Error(`try ${ctx.attempt} failed`);
        },
        {
          maxAttempts: 3,
          backoffMs: (attempt) => 1_000 * 2 ** (attempt - 1),
          onFailed: async (_p, err) => {
            failed.push(err.message);
          },
        },
      ),
    );
    await j.enqueue(db.q, 'test.flaky', { failures: 2 });
    expect(await j.drain()).toBe(1); // try 1 fails; the next is 1 s later
    clock.advance(999);
    expect(await j.drain()).toBe(0);
    clock.advance(1);
    expect(await j.drain()).toBe(1); // try 2 fails; 2 s later
    clock.advance(2_000);
    expect(await j.drain()).toBe(1); // try 3 succeeds
    expect(tries).toEqual([1, 2, 3]);
    expect(failed).toEqual([]);
    expect(await waiting('test.flaky')).toBe(0);

    tries.length = 0;
    await j.enqueue(db.q, 'test.flaky', { failures: 99 });
    for (let i = 0; i < 3; i++) {
      await j.drain();
      clock.advance(10_000);
    }
    expect(tries).toEqual([1, 2, 3]);
    expect(failed).toEqual(['try 3 failed']);
    const [row] = await db.query(
      `SELECT failed_at IS NOT NULL AS failed, attempts, last_error AS "lastError" FROM jobs WHERE name = 'test.flaky'`,
    );
    expect(row).toEqual({ failed: true, attempts: 3, lastError: 'try 3 failed' });
    expect(await j.drain()).toBe(0);
  });

  it('fails at once on a PermanentJobError', async () => {
    const clock = new ManualClock();
    let failed = 0;
    const j = worker(clock, (w) =>
      w.define(
        'test.permanent',
        async () => {
          throw new PermanentJobError('no use trying again');
        },
        { onFailed: async () => void failed++ },
      ),
    );
    await j.enqueue(db.q, 'test.permanent', {});
    await j.drain();
    clock.advance(3_600_000);
    await j.drain();
    expect(failed).toBe(1);
  });

  it("takes over a dead worker's job once its lease ends, but never a live worker's (the heartbeat renews it)", async () => {
    const clock = new ManualClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const setup = (w: Jobs) =>
      w.define('test.slow', async () => {
        runs++;
        await gate;
      });
    const live = worker(clock, setup);
    const other = worker(clock, setup);
    // a job claimed by a process that then died: nobody renews its lease
    await live.enqueue(db.q, 'test.slow', {});
    const [dead] = await jobsRepo.claim(db.q, {
      worker: 'dead-process',
      names: ['test.slow'],
      now: new Date(clock.now()),
      until: new Date(clock.now() + fast.leaseMs),
      limit: 1,
    });
    expect(dead).toBeDefined();
    expect(await other.drain()).toBe(0);
    clock.advance(fast.leaseMs + 1);

    // the live worker takes it over and runs it; while it runs, its heartbeat keeps the lease
    void live.drain();
    await until(async () => runs === 1);
    clock.advance(10 * fast.leaseMs);
    await until(async () => {
      const [r] = await db.query<{ until: Date }>(
        `SELECT locked_until AS until FROM jobs WHERE name = 'test.slow'`,
      );
      return r && r.until.getTime() > clock.now();
    });
    expect(await other.drain()).toBe(0);
    release();
    await until(async () => (await waiting('test.slow')) === 0);
    expect(runs).toBe(1);
  });

  it('runs a job born claimed in a transaction after the commit; nobody else takes it meanwhile', async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const setup = (w: Jobs) => w.define('test.count', async ({ n }) => void seen.push(n));
    const a = createJobs({ db, clock, log, options: fast });
    setup(a);
    const b = worker(clock, setup);
    const job = await db.tx((tx) => a.enqueueClaimed(tx, 'test.count', { n: 7 }));
    expect(await b.drain()).toBe(0);
    a.run(job);
    await until(async () => seen.length === 1);
    expect(seen).toEqual([7]);
    await until(async () => (await waiting('test.count')) === 0);

    // a transaction that rolls back leaves no job
    await expect(
      db.tx(async (tx) => {
        await a.enqueueClaimed(tx, 'test.count', { n: 8 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await waiting('test.count')).toBe(0);
  });

  it('enqueues a schedule once per period whatever the number of servers', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 10, 0, 30));
    let runs = 0;
    const setup = (w: Jobs) => {
      w.define('test.tick', async () => void runs++);
      w.schedule('test.tick', { everyMs: 60_000 }, {});
    };
    const servers = [worker(clock, setup), worker(clock, setup), worker(clock, setup)];
    await db.query(`DELETE FROM job_schedules WHERE name = 'test.tick'`);
    for (const s of servers) await s.start();
    for (let minute = 1; minute <= 3; minute++) {
      clock.set(Date.UTC(2026, 0, 1, 10, minute, 0));
      await Promise.all(servers.map((s) => s.drain()));
      expect(runs).toBe(minute);
    }
    for (const s of servers) await s.stop();
  });
});

describe(`purges (${testDbKind})`, () => {
  it('delete what each table no longer needs, by the app clock, and keep the rest; then refresh the statistics', async () => {
    const start = Date.UTC(2026, 5, 1, 13, 0, 0);
    const clock = new ManualClock(start);
    // the purges (hourly at :07 to :42) run at 13:50: rows are old or fresh as seen from then; the
    // statistics (hourly at :55) are refreshed after them, as in production (due in one drain, the
    // jobs would run side by side and ANALYZE could count a row a purge had not yet deleted)
    const purgeTime = start + 50 * 60_000;
    const old = (ms: number) => new Date(purgeTime - ms - 60_000);
    const fresh = new Date(purgeTime - 1_000);
    await db.query(
      `INSERT INTO captchas (id, answer, expires_at) VALUES ('c-old', 'x', $1), ('c-new', 'x', $2)`,
      [old(retention['purge.captchas'].keepMs), fresh],
    );
    await db.query(`INSERT INTO rate_events (key, at) VALUES ('purge-old', $1), ('purge-new', $2)`, [
      old(retention['purge.rateEvents'].keepMs),
      fresh,
    ]);
    await db.query(
      `INSERT INTO outbox (channel, to_address, text, created_at) VALUES ('email', 'purge-old', 'x', $1), ('email', 'purge-new', 'x', $2)`,
      [old(retention['purge.outbox'].keepMs), fresh],
    );
    await db.query(
      `INSERT INTO signin_codes (brand, purpose, address, channel, code_hash, expires_at) VALUES ('numa', 'login', 'purge-old', 'email', 'h', $1), ('numa', 'login', 'purge-new', 'email', 'h', $2)`,
      [old(retention['purge.signinCodes'].keepMs), fresh],
    );
    const [acc] = await db.query<{ id: number }>(
      `INSERT INTO accounts (brand, email) VALUES ('numa', 'purge@example.com') RETURNING id`,
    );
    await db.query(
      `INSERT INTO sessions (account_id, token_hash, expires_at) VALUES ($1, 'purge-old', $2), ($1, 'purge-new', $3)`,
      [acc!.id, old(retention['purge.sessions'].keepMs), fresh],
    );
    await db.query(
      `INSERT INTO jobs (name, run_at, max_attempts, failed_at) VALUES ('purge-old', $1, 1, $1), ('purge-new', $2, 1, $2)`,
      [old(retention['purge.failedJobs'].keepMs), fresh],
    );

    // fresh rows the planner has not counted yet (below autovacuum's threshold on PostgreSQL)
    await db.query(
      `INSERT INTO outbox (channel, to_address, text, created_at) SELECT 'email', 'analyze-' || g, 'x', $1 FROM generate_series(1, 20) g`,
      [fresh],
    );
    const planned = async () =>
      (
        await rawQuery<{ n: number }>(
          db.q,
          `SELECT reltuples::int AS n FROM pg_class WHERE oid = 'outbox'::regclass`,
        )
      )[0]!.n;
    const [{ n: outboxRows }] = (await rawQuery<{ n: number }>(
      db.q,
      'SELECT count(*)::int AS n FROM outbox',
    )) as [{ n: number }];
    expect(await planned()).not.toBe(outboxRows);

    const j = createJobs({ db, clock, log, options: fast });
    registerPurges(j, db, clock);
    workers.push(j);
    await j.start();
    clock.set(purgeTime); // every purge's hourly period has come, not yet the statistics'
    await j.drain();
    clock.set(start + 56 * 60_000);
    await j.drain();
    await j.stop();

    const left = async (table: string, col: string) =>
      (
        await rawQuery<{ v: string }>(
          db.q,
          `SELECT ${col} AS v FROM ${table} WHERE ${col} LIKE '%-old' OR ${col} LIKE '%-new' ORDER BY 1`,
        )
      ).map((r) => r.v);
    expect(await left('captchas', 'id')).toEqual(['c-new']);
    expect(await left('rate_events', 'key')).toEqual(['purge-new']);
    expect(await left('outbox', 'to_address')).toEqual(['purge-new']);
    expect(await left('signin_codes', 'address')).toEqual(['purge-new']);
    expect(await left('sessions', 'token_hash')).toEqual(['purge-new']);
    expect(await left('jobs', 'name')).toEqual(['purge-new']);
    // db.analyze ran in the same hour, after the purges: the planner counts the table's rows as they are
    const [{ n: nowRows }] = (await rawQuery<{ n: number }>(
      db.q,
      'SELECT count(*)::int AS n FROM outbox',
    )) as [{ n: number }];
    expect(await planned()).toBe(nowRows);
  });
});

describe(`a restart on the same machine (${testDbKind})`, () => {
  it("frees at start the jobs of this machine's dead processes, not those of live ones", async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const setup = (w: Jobs) => w.define('test.count', async ({ n }) => void seen.push(n));
    const host = (await import('node:os')).hostname();
    // a process that ran and exited: its pid is free
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    const live = worker(clock, setup);
    for (const [n, holder] of [
      [1, `${host}:${gone}:dead`],
      [2, `${host}:${process.pid}:earlier`], // this pid, but no worker of this process: a predecessor
      [3, live.worker], // a live worker of this process
      [4, `elsewhere:${gone}:x`], // another machine: its lease decides
    ] as const) {
      const { id } = await live.enqueue(db.q, 'test.count', { n });
      await db.query(`UPDATE jobs SET locked_by = $2, locked_until = $3, attempts = 1 WHERE id = $1`, [
        id,
        holder,
        new Date(clock.now() + 60_000),
      ]);
    }
    const restarted = worker(clock, setup);
    await restarted.start();
    await restarted.drain();
    await restarted.stop();
    expect(seen.sort()).toEqual([1, 2]);
    await db.query(`DELETE FROM jobs WHERE name = 'test.count'`);
  });
});
