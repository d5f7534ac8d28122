/**
 * `npm run bench:crash`: a server killed with `kill -9` while it holds 1,000 acknowledged messages to
 * a number off the platform (one on the platform is delivered in the transaction that stores it,
 * before the acknowledgement), then a new server on the same database.
 *
 * BENCH_CRASH_MODE=accepted (the default; issue 18 §7): the carrier (the simulator, its message log in
 * the database) has accepted every one of them and the server has recorded none (its answers never
 * come back): the point of worst uncertainty. The new server must ask the carrier about each and hand
 * over none again. BENCH_CRASH_MODE=stall (issue 8): the carrier has seen none of them; the new server
 * asks, finds nothing, and hands each over.
 *
 * Measured: from the restart (spawn) until all 1,000 are 'sent' to A, and the carrier's hand-overs
 * per message (its log: one acceptance each, none twice; our carrier id is the one it gave), no
 * carrier job left, A's ledger summing to its balance.
 *
 * The first server is the test fixture (test/fixtures/chat-server.ts, FIXTURE_CARRIER=hang or stall);
 * the restart is the production bundle (apps/server/dist/server.js, built first). The database is
 * the embedded PGlite that `npm start` uses (the new process owns it and frees the dead one's jobs at
 * start), or PostgreSQL with BENCH_DATABASE_URL (the new process frees the jobs of dead processes of
 * its machine at start). Goal (issue 8): all within 10 s of the restart; (issue 18) no duplicate.
 * Results: bench/results/crash-<database>.json (crash-<database>-stall.json). BENCH_PROFILE=<folder> writes a CPU profile of the
 * restarted server there (node --cpu-prof).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { io as connectIo, type Socket } from 'socket.io-client';
import { constants, socketPath, toMinor } from '@numa/contract';
import type { Database } from '../apps/server/src/db';
import { migrate } from '../apps/server/src/db/migrate';
import { openPglite } from '../apps/server/src/db/pglite';
import { openPostgres } from '../apps/server/src/db/postgres';
import { raw } from '../apps/server/src/db/raw';
import { ledger } from '../apps/server/src/repositories/ledger';
import { assignNumber } from '../apps/server/src/services/rentals/numbers/assign';
import { createSessionService } from '../apps/server/src/services/sessions';

const COUNT = Number(process.env.BENCH_CRASH_MESSAGES ?? 1000);
const MODE = process.env.BENCH_CRASH_MODE === 'stall' ? 'stall' : 'accepted';
const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../apps/server');
const children: ChildProcess[] = [];
/** The flood limits out of the way: the 1,000 sends before the crash are one account's burst, on purpose. */
const unlimited = {
  SOCKET_EVENTS_PER_SECOND: '100000',
  SOCKET_EVENTS_BURST: '100000',
  ACCOUNT_EVENTS_PER_SECOND: '100000',
  ACCOUNT_EVENTS_BURST: '100000',
};

/** A free port on this machine. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** The production server (the bundle `npm start` runs), listening once /healthz answers. */
async function serveProduction(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      path.join(serverDir, 'dist/server.js'),
    ],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        // production with the simulated providers: a demo's opt-in (production is fail-closed, issue 18)
        DEMO_MODE: '1',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
        ...unlimited,
        HOST: '127.0.0.1',
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    if (
      (await fetch(`${url}/healthz`)
        .then((r) => r.ok)
        .catch(() => false)) === true
    )
      return { url, child };
    await new Promise((r) => setTimeout(r, 20));
  }
}

function serve(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; lines: string[] }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(serverDir, 'test/fixtures/chat-server.ts')],
    {
      cwd: serverDir,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        // production with the simulated providers: a demo's opt-in (production is fail-closed, issue 18)
        DEMO_MODE: '1',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
        ...unlimited,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = /^LISTENING (\d+)$/.exec(line);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, child, lines });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${errors}`)));
  });
}

/** CPU seconds a process has used (Linux /proc), a figure the machine's other load does not inflate. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

function connect(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connectIo(url, {
      path: socketPath,
      query: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

async function main() {
  // the restart is the production bundle, as `npm start` runs it
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir, stdio: 'ignore' });
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-bench-crash-'));
  const schema = `bench_crash_${process.pid}`;
  const open = (): Promise<Database> =>
    pgUrl ? openPostgres(pgUrl, { schema, max: 3 }) : openPglite(path.join(dataDir, 'pg'));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (pgUrl) {
    const u = new URL(pgUrl);
    u.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = u.toString();
  }

  let db = await open();
  await migrate(db);
  const make = (email: string, number: string, balance: number) =>
    db.tx(async (tx) => {
      const [row] = await raw<{ id: number }>(
        tx,
        `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
        [email],
      );
      const id = row!.id;
      await assignNumber(tx, { accountId: id, number });
      if (balance)
        await ledger.apply(tx, {
          accountId: id,
          type: constants.billTypes.adjustment,
          charge: toMinor(balance),
          options: { campaignName: 'bench' },
        });
      const { token } = await createSessionService(db).start(tx, id, {});
      return { id, token, number: number.slice(1) };
    });
  const a = await make('crash-a@example.com', '+14155550911', 100);
  // a number off the platform: its messages wait for the carrier (one on the platform is delivered at commit)
  const outside = '12125550912';
  await db.close();

  console.log(
    `Crash recovery — ${pgUrl ? 'PostgreSQL' : 'PGlite (embedded)'}, ${COUNT} messages ${MODE === 'accepted' ? 'accepted by the carrier, none recorded' : 'not yet handed over'}, Node ${process.version}, ${os.cpus().length} CPUs`,
  );
  const first = await serve({
    ...env,
    ...(MODE === 'accepted'
      ? { FIXTURE_CARRIER: 'hang', FIXTURE_HANG_PREFIX: 'crash ' }
      : { FIXTURE_CARRIER: 'stall' }),
  });
  const sa = await connect(first.url, a.token);
  const t0 = performance.now();
  for (let i = 0; i < COUNT; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, COUNT - i) }, (_, k) => {
        const n = i + k;
        return new Promise<void>((resolve, reject) =>
          sa.emit(
            'sendMessage',
            {
              fromNumber: a.number,
              toNumber: outside,
              text: `crash ${MODE === 'accepted' ? 'accept' : 'stall'} ${n}`,
              msgType: 'sms',
              smsId: `crash-${n}`,
              platform: 'numa',
              languagecode: 'en',
            },
            (ack: { retcode: number; retmsg: string }) =>
              ack.retcode === 0 ? resolve() : reject(new Error(ack.retmsg)),
          ),
        );
      }),
    );
  }
  // every hand-over has reached the point where it stops: accepted by the carrier (its answer never
  // comes back), or held before the carrier
  const stopped = MODE === 'accepted' ? 'ACCEPTED ' : 'STALLED ';
  for (;;) {
    if (first.lines.filter((l) => l.startsWith(stopped)).length >= COUNT) break;
    if (performance.now() - t0 > 120_000) throw new Error('the hand-overs did not all reach the carrier');
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(
    `  ${COUNT} sends acknowledged (stored, charged) and ${MODE === 'accepted' ? 'accepted by the carrier, not recorded' : 'not handed to the carrier'} in ${Math.round(performance.now() - t0)} ms`,
  );
  sa.close();
  first.child.kill('SIGKILL');
  await exited(first.child);

  const restart = performance.now();
  const second = await serveProduction(env);
  const listening = performance.now() - restart;
  // A's socket hears each hand-over ('sent') from now on; what was sent before it connected is read once
  const seen = new Set<string>();
  const sa2 = await connect(second.url, a.token);
  const done = new Promise<void>((resolve) => {
    const check = () => seen.size >= COUNT && resolve();
    sa2.on('receiveMessage', (m: { smsId: string; status: number }) => {
      if (m.status === 0) seen.add(m.smsId);
      check();
    });
    void (async () => {
      let startTime: number | null = null;
      do {
        const q = new URLSearchParams({
          ownFullNumber: a.number,
          otherFullNumber: outside,
          pageSize: '500',
          languagecode: 'en',
        });
        if (startTime !== null) q.set('startTime', String(startTime));
        const res = await fetch(`${second.url}/web/getDialogList?${q}`, {
          headers: { 'auth-token': a.token },
        });
        const body = (await res.json()) as {
          data?: { dialogList: { smsId: string; status: number }[]; nextStartTime: number | null };
        };
        for (const m of body.data?.dialogList ?? []) if (m.status === 0) seen.add(m.smsId);
        startTime = body.data?.nextStartTime ?? null;
      } while (startTime !== null);
      check();
    })();
  });
  const deadline = setTimeout(() => {
    console.error(`only ${seen.size} of ${COUNT} handed to the carrier after 2 minutes`);
    process.exit(1);
  }, 120_000);
  await done;
  clearTimeout(deadline);
  const total = performance.now() - restart;
  const cpu = cpuSeconds(second.child.pid);
  const load = os.loadavg()[0]!;

  sa2.close();
  second.child.kill('SIGTERM');
  await exited(second.child);
  db = await open();
  // each message sent once: one carrier id each, and no carrier job left behind
  const [copies] = await raw<{ n: number; distinct: number; jobs: number }>(
    db.q,
    `SELECT count(*)::int AS n, count(DISTINCT carrier_id)::int AS distinct,
            (SELECT count(*)::int FROM jobs WHERE name = 'carrier.send') AS jobs
       FROM messages WHERE account_id = $1 AND status = 0`,
    [a.id],
  );
  // the carrier's hand-overs per message (its own log): every message once, under the id we recorded
  const [carrier] = await raw<{ accepted: number; handedTwice: number; matching: number }>(
    db.q,
    `SELECT (SELECT count(*)::int FROM carrier_simulator_messages) AS accepted,
            (SELECT count(*)::int FROM (SELECT 1 FROM carrier_simulator_messages GROUP BY request_key
                                         HAVING count(*) > 1) d) AS "handedTwice",
            (SELECT count(*)::int FROM messages m JOIN carrier_simulator_messages c
                ON c.request_key = 'msg-' || m.id AND c.sid = m.carrier_id
              WHERE m.account_id = $1) AS matching`,
    [a.id],
  );
  const [books] = await raw<{ sum: number; balance: number }>(
    db.q,
    `SELECT (SELECT sum(charge) FROM ledger WHERE account_id = $1)::bigint AS sum, (SELECT balance FROM accounts WHERE id = $1) AS balance`,
    [a.id],
  );
  if (pgUrl) await raw(db.q, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });

  const result = {
    date: new Date().toISOString(),
    database: pgUrl ? 'postgres' : 'pglite',
    mode: MODE,
    messages: COUNT,
    restartToListeningMs: Math.round(listening),
    restartToAllHandedOverMs: Math.round(total),
    listeningToAllHandedOverMs: Math.round(total - listening),
    /** CPU the restarted server used from its start to the last hand-over (start-up included) */
    serverCpuSeconds: cpu,
    loadAverage1m: Math.round(load * 100) / 100,
    sent: copies!.n,
    distinctCarrierIds: copies!.distinct,
    carrierJobsLeft: copies!.jobs,
    /** acceptances in the carrier's log (one per hand-over), messages it has more than once, ours under its id */
    carrierAccepted: carrier!.accepted,
    carrierDuplicates: carrier!.handedTwice,
    carrierIdsMatching: carrier!.matching,
    ledgerSum: books!.sum,
    balance: books!.balance,
    goalMet:
      total <= 10_000 &&
      copies!.n === COUNT &&
      copies!.distinct === COUNT &&
      copies!.jobs === 0 &&
      carrier!.accepted === COUNT &&
      carrier!.handedTwice === 0 &&
      carrier!.matching === COUNT &&
      books!.sum === books!.balance,
  };
  console.log(
    `  restart → listening ${result.restartToListeningMs} ms; restart → all ${COUNT} handed to the carrier ${result.restartToAllHandedOverMs} ms`,
  );
  console.log(
    `  sent ${result.sent} (distinct carrier ids ${result.distinctCarrierIds}, carrier jobs left ${result.carrierJobsLeft}); ledger sum ${result.ledgerSum} = balance ${result.balance}: ${result.ledgerSum === result.balance}`,
  );
  console.log(
    `  the carrier's log: ${result.carrierAccepted} acceptances for ${COUNT} messages, ${result.carrierDuplicates} handed over twice, ${result.carrierIdsMatching} recorded under the carrier's id`,
  );
  console.log(
    `  goal (all within 10 s, once each at the carrier, books balanced): ${result.goalMet ? 'met' : 'NOT met'}`,
  );
  const dir = path.join(here, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, `crash-${result.database}${MODE === 'stall' ? '-stall' : ''}.json`),
    JSON.stringify(result, null, 2) + '\n',
  );
  if (!result.goalMet) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  process.exitCode = 1;
});
