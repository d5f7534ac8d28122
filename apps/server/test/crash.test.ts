import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Database } from '../src/db';
import { migrate } from '../src/db/migrate';
import { openPglite } from '../src/db/pglite';
import { openPostgres } from '../src/db/postgres';
import { createSessionService } from '../src/services/sessions';
import { assignNumber } from '../src/services/rentals/numbers/assign';
import { connect, credit, money, textPayload, until, type ChatClientSocket } from './chat-support';
import { rawQuery, testDbKind, withQuery } from './helpers';
import { bundled } from './spawned';

/**
 * Servers killed with SIGKILL while they hold acknowledged messages (issue 8; issue 18 §7), five times
 * in a row on one database (each restarted process is the next one killed). At each kill, every
 * message of the run is acknowledged to its sender, and:
 * - one third went to B, a number on the platform: delivered in the transaction that stored it,
 *   before the acknowledgement, so it survives the kill as it is;
 * - one third the carrier accepted, and the server never heard back (the point of worst uncertainty:
 *   after the carrier's acceptance, before our record of it);
 * - one third was still held before the carrier (not handed over).
 * The next process recovers them: the carrier job's second try asks the carrier first, adopts what
 * it has and hands over only the rest. Each message reaches the carrier exactly once (counted by the
 * carrier's own log: a file every process appends each acceptance to, and the simulator's table),
 * B has each of its messages once, and the ledger balances. On the embedded database a new process
 * owns the database and frees the dead one's jobs at start; on PostgreSQL it frees those of dead
 * processes of its own machine at start. bench/crash.ts runs the same with 1,000 messages.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];
const sockets: ChatClientSocket[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of cleanups.reverse()) await f();
});

interface Served {
  url: string;
  child: ChildProcess;
  /** What the process printed (the fixture's ACCEPTED / STALLED lines). */
  lines: string[];
}

async function serve(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [await bundled('test/fixtures/chat-server.ts')], {
    cwd: path.resolve(here, '..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      ...unlimited,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let errors = '';
  child.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server process did not start: ${errors}`)), 90_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = /^LISTENING (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}`, child, lines });
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited (${code}): ${errors}`)));
  });
}

/** The flood limits out of the way: the sends before the crash are one account's burst, on purpose. */
const unlimited = {
  SOCKET_EVENTS_PER_SECOND: '100000',
  SOCKET_EVENTS_BURST: '100000',
  ACCOUNT_EVENTS_PER_SECOND: '100000',
  ACCOUNT_EVENTS_BURST: '100000',
};

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );

/** The database the processes share, opened by the test only while no process holds it (PGlite is one process's). */
async function sharedDatabase(): Promise<{ open(): Promise<Database>; env: Record<string, string> }> {
  if (testDbKind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `crash_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const withPath = new URL(url);
    withPath.searchParams.set('options', `-c search_path=${schema}`);
    cleanups.push(async () => {
      const db = withQuery(await openPostgres(url, { schema }));
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    });
    return { open: () => openPostgres(url, { schema, max: 3 }), env: { DATABASE_URL: withPath.toString() } };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'numa-crash-'));
  cpSync(inject('pgliteTemplate'), path.join(dir, 'pg'), { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { open: () => openPglite(path.join(dir, 'pg')), env: { DATA_DIR: dir } };
}

/** A conversation's messages as the server answers getDialogList (newest first). */
async function dialog(url: string, token: string, own: string, other: string) {
  const res = await fetch(
    `${url}/web/getDialogList?ownFullNumber=${own}&otherFullNumber=${other}&pageSize=200&languagecode=en`,
    { headers: { 'auth-token': token, host: 'localhost' } },
  );
  const body = (await res.json()) as { data?: { dialogList: { status: number; text: string }[] } };
  return body.data?.dialogList ?? [];
}

describe(`servers killed with acknowledged messages, some accepted by the carrier and not recorded (${testDbKind})`, () => {
  const RUNS = 5;
  /** Messages of each kind per run (to B, accepted by the carrier, held before it). */
  const K = 8;
  it(
    `${RUNS} kills in a row: every message reaches the carrier once (found there, or handed over after the restart), B's once; the books balance`,
    { timeout: 300_000 },
    async () => {
      const shared = await sharedDatabase();
      let db = await shared.open();
      await migrate(db);
      const { a, b } = await db.tx(async (tx) => {
        const make = async (email: string, number: string, balance: number) => {
          const [{ id }] = (await rawQuery<{ id: number }>(
            tx,
            `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
            [email],
          )) as [{ id: number }];
          await assignNumber(tx, { accountId: id, number });
          if (balance) await credit(tx, id, balance);
          const { token } = await createSessionService(db).start(tx, id, {});
          return { id, token, number: number.slice(1) };
        };
        return {
          a: await make('crash-a@example.com', '+14155550801', 10),
          b: await make('crash-b@example.com', '+14155550802', 0),
        };
      });
      await db.close();

      // two numbers off the platform: the carrier accepts what goes to one, the other waits before it
      const acceptedTo = '12125550803';
      const heldTo = '12125550804';
      const carrierLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'numa-carrier-')), 'log');
      writeFileSync(carrierLog, '');
      cleanups.push(() => rmSync(path.dirname(carrierLog), { recursive: true, force: true }));
      const env = { ...shared.env, FIXTURE_CARRIER: 'hang', FIXTURE_CARRIER_LOG: carrierLog };
      const started = Date.now();
      const recoveries: number[] = [];
      let server = await serve({ ...env, FIXTURE_HANG_PREFIX: 'r1 ' });
      for (let r = 1; r <= RUNS; r++) {
        const sa = await connect(server.url, a.token);
        sockets.push(sa);
        const payloads = Array.from({ length: 3 * K }, (_, i) =>
          i < K
            ? textPayload(a.number, b.number, `r${r} to B ${i}`)
            : i < 2 * K
              ? textPayload(a.number, acceptedTo, `r${r} accept ${i}`)
              : textPayload(a.number, heldTo, `r${r} stall ${i}`),
        );
        const acks = await Promise.all(
          // the acknowledgement callback (the contract's event type leaves it out; the server answers it)
          payloads.map(
            (p) =>
              new Promise<{ retcode: number }>((resolve) =>
                (sa.emit as (...args: unknown[]) => void)('sendMessage', p, resolve),
              ),
          ),
        );
        expect(acks.filter((x) => x.retcode !== 0)).toEqual([]);
        // every hand-over of this run is where it stops: K accepted by the carrier, K held before it
        const count = (what: string) => server.lines.filter((l) => l.startsWith(`${what} `)).length;
        await until(async () => count('ACCEPTED') === K && count('STALLED') === K, 30_000);
        sa.close();
        server.child.kill('SIGKILL');
        await exited(server.child);

        // the next process (the one killed next) recovers this run
        const restart = Date.now();
        server = await serve({ ...env, FIXTURE_HANG_PREFIX: r < RUNS ? `r${r + 1} ` : 'none ' });
        const ofRun = (list: { status: number; text: string }[]) =>
          list.filter((m) => m.text.startsWith(`r${r} `));
        // B has its third already (delivered at commit, before the kill)
        expect(ofRun(await dialog(server.url, b.token, b.number, a.number))).toHaveLength(K);
        await until(
          async () => {
            const mine = ofRun([
              ...(await dialog(server.url, a.token, a.number, acceptedTo)),
              ...(await dialog(server.url, a.token, a.number, heldTo)),
            ]);
            return mine.length === 2 * K && mine.every((m) => m.status === 0);
          },
          60_000,
          100,
        );
        recoveries.push(Date.now() - restart);
      }
      const tookMs = Date.now() - started;
      server.child.kill('SIGTERM');
      await exited(server.child);

      db = await shared.open();
      try {
        // the carrier's hand-overs per message: the acceptances every process logged, and the simulator's log
        const handed = readFileSync(carrierLog, 'utf8').split('\n').filter(Boolean);
        const perKey = new Map<string, number>();
        for (const k of handed) perKey.set(k, (perKey.get(k) ?? 0) + 1);
        expect([...perKey].filter(([, n]) => n > 1)).toEqual([]);
        expect(perKey.size).toBe(2 * K * RUNS);
        const atCarrier = await rawQuery<{ key: string; n: number }>(
          db.q,
          `SELECT request_key AS key, count(*)::int AS n FROM carrier_simulator_messages GROUP BY request_key`,
        );
        expect(atCarrier.filter((x) => x.n !== 1)).toEqual([]);
        expect(new Set(atCarrier.map((x) => x.key))).toEqual(new Set(perKey.keys()));
        // every message of A sent: those off the platform under the id of their one acceptance
        const mine = await rawQuery<{ status: number; carrier: string; matches: boolean }>(
          db.q,
          `SELECT m.status, m.carrier, c.sid IS NOT NULL AND c.sid = m.carrier_id AS matches
             FROM messages m LEFT JOIN carrier_simulator_messages c ON c.request_key = 'msg-' || m.id
            WHERE m.account_id = $1`,
          [a.id],
        );
        expect(mine).toHaveLength(3 * K * RUNS);
        expect(mine.filter((m) => m.status !== 0)).toEqual([]);
        expect(mine.filter((m) => m.carrier !== 'platform' && !m.matches)).toEqual([]);
        expect(mine.filter((m) => m.carrier === 'platform')).toHaveLength(K * RUNS);
        // B's copies: each once
        const copies = await rawQuery<{ text: string; n: number }>(
          db.q,
          `SELECT text, count(*)::int AS n FROM messages WHERE account_id = $1 GROUP BY text`,
          [b.id],
        );
        expect(copies).toHaveLength(K * RUNS);
        expect(copies.filter((c) => c.n !== 1)).toEqual([]);
        const { balance, bills } = await money(db.q, a.id);
        expect(balance).toBe(bills.reduce((sum, x) => sum + x.charge, 0));
        expect(balance).toBe(100_000 - 3 * K * RUNS * 80);
        expect(await rawQuery(db.q, `SELECT 1 FROM jobs WHERE name = 'carrier.send'`)).toEqual([]);
      } finally {
        await db.close();
      }
      // not a timed test: how long it took is only reported
      console.warn(
        `${RUNS} kills (${testDbKind}), ${3 * K * RUNS} messages: each handed to the carrier once; recovery after each restart ${recoveries.join(', ')} ms; ${tookMs} ms in all`,
      );
    },
  );
});
