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
import { assignNumber } from '../src/services/numbers';
import { connect, credit, inbox, money, textPayload, until, type ChatClientSocket } from './chat-support';
import { rawQuery, testDbKind, withQuery } from './helpers';

/**
 * A server process killed with SIGKILL while it holds acknowledged messages it has not handed to the
 * carrier (its carrier never answers): a new process on the same database hands every one to the
 * carrier, none twice, and the books still balance. Those to a number on the platform were delivered
 * to B in the transaction that stored them, before the acknowledgement: they survive the kill as they are. On the embedded database the new process owns the
 * database and frees the dead one's jobs at start; on PostgreSQL it takes them once their short
 * leases end (nobody renews them). bench/crash.ts measures the same with 1,000 messages.
 */
const N = 40;
const here = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];
const sockets: ChatClientSocket[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of cleanups.reverse()) await f();
});

function serve(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/chat-server.ts')], {
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
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server process did not start: ${errors}`)), 45_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^LISTENING (\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}`, child });
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

describe(`a server killed with acknowledged, undelivered messages (${testDbKind})`, () => {
  it(
    'a restarted server hands every one to the carrier once (B had its half at commit); the ledger still balances',
    { timeout: 120_000 },
    async () => {
      const shared = await sharedDatabase();
      let db = await shared.open();
      await migrate(db);
      const people = await db.tx(async (tx) => {
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
      const { a, b } = people;
      await db.close();

      // the first process: every send is acknowledged (stored, charged, its job born claimed), none delivered
      const first = await serve({ ...shared.env, FIXTURE_CARRIER: 'stall' });
      const sa = await connect(first.url, a.token);
      sockets.push(sa);
      // half to B on the platform (delivered at commit), half to a number off the platform (the carrier's)
      const outside = '12125550803';
      const payloads = Array.from({ length: N }, (_, i) =>
        textPayload(a.number, i % 2 ? outside : b.number, `before the crash ${i}`),
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
      sa.close();
      first.child.kill('SIGKILL');
      await exited(first.child);

      // a new process on the same database, with a working carrier that records what it is handed
      const carrierLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'numa-carrier-')), 'log');
      writeFileSync(carrierLog, '');
      cleanups.push(() => rmSync(path.dirname(carrierLog), { recursive: true, force: true }));
      const started = Date.now();
      const second = await serve({ ...shared.env, FIXTURE_CARRIER_LOG: carrierLog });
      const sb = await connect(second.url, b.token);
      sockets.push(sb);
      const ib = inbox(sb);
      const dialog = async (token: string, own: string, other: string) => {
        const res = await fetch(
          `${second.url}/web/getDialogList?ownFullNumber=${own}&otherFullNumber=${other}&pageSize=200&languagecode=en`,
          { headers: { 'auth-token': token, host: 'localhost' } },
        );
        const body = (await res.json()) as { data?: { dialogList: { status: number }[] } };
        return body.data?.dialogList ?? [];
      };
      // B's half is in its chat already; the other half is handed to the carrier after the restart
      expect(await dialog(b.token, b.number, a.number)).toHaveLength(N / 2);
      await until(async () => {
        const mine = await dialog(a.token, a.number, outside);
        return mine.length === N / 2 && mine.every((m) => m.status === 0);
      }, 60_000);
      const tookMs = Date.now() - started;
      expect(ib.seen.every((m) => m.direction === 'in')).toBe(true);
      const handed = readFileSync(carrierLog, 'utf8').split('\n').filter(Boolean);
      expect(handed).toHaveLength(N / 2);
      expect(new Set(handed).size).toBe(N / 2);
      sb.close();
      second.child.kill('SIGTERM');
      await exited(second.child);

      db = await shared.open();
      try {
        const copies = await rawQuery<{ text: string; n: number }>(
          db.q,
          `SELECT text, count(*)::int AS n FROM messages WHERE account_id = $1 GROUP BY text`,
          [b.id],
        );
        expect(copies).toHaveLength(N / 2);
        expect(copies.every((c) => c.n === 1)).toBe(true);
        expect(new Set(copies.map((c) => c.text))).toEqual(
          new Set(payloads.filter((p) => p.toNumber === b.number).map((p) => p.text)),
        );
        const sent = await rawQuery<{ status: number; n: number }>(
          db.q,
          `SELECT status, count(*)::int AS n FROM messages WHERE account_id = $1 GROUP BY status`,
          [a.id],
        );
        expect(sent).toEqual([{ status: 0, n: N }]);
        const { balance, bills } = await money(db.q, a.id);
        expect(balance).toBe(bills.reduce((s, x) => s + x.charge, 0));
        expect(balance).toBe(100_000 - N * 80);
        expect(await rawQuery(db.q, `SELECT 1 FROM jobs WHERE name = 'carrier.send'`)).toEqual([]);
      } finally {
        await db.close();
      }
      // not a timed test: how long it took is only reported
      console.warn(
        `crash recovery (${testDbKind}): ${N / 2} messages reached the carrier ${tookMs} ms after the restart began`,
      );
    },
  );
});
