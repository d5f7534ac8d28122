import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { Kicked } from '@numa/contract';
import { buildApp } from '../src/app';
import { migrate } from '../src/db/migrate';
import { openPostgres } from '../src/db/postgres';
import type { Database } from '../src/db';
import { createSessionService } from '../src/services/sessions';
import { assignNumber } from '../src/services/rentals/numbers/assign';
import { SimulatedMail } from '../src/providers/mail/simulator';
import { openTestDb, rawQuery, testDbKind, testEnv, withQuery } from './helpers';
import { bundled } from './spawned';
import { connect, credit, inbox, money, textPayload, type ChatClientSocket } from './chat-support';

/**
 * Several servers, one user base: socket.io's Redis adapter joins the rooms of every server, so a
 * message sent through one reaches the other account's socket on another. Needs Redis (TEST_REDIS_URL,
 * default redis://127.0.0.1:6379); the separate-process part needs PostgreSQL (TEST_DATABASE_URL).
 */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await (async () => {
  const r = new Redis(redisUrl, {
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
})();
const pgUrl = testDbKind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
if (!redisUp) console.warn(`scale-out suites skipped: no Redis at ${redisUrl} (set TEST_REDIS_URL)`);
else if (!pgUrl)
  console.warn(
    'scale-out across processes skipped on PGlite: it runs in the server-pg project (set TEST_DATABASE_URL)',
  );

const prefix = () => `numa-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const sockets: ChatClientSocket[] = [];
const open = async (url: string, token: string) => {
  const s = await connect(url, token);
  sockets.push(s);
  return s;
};
afterAll(() => {
  for (const s of sockets) s.close();
});

/**
 * An account with a session (token), a number and a balance, made directly in the database. Its
 * e-mail and number are new at every call, so that a test CI runs again (vitest's retry) finds none
 * of them taken by its first try.
 */
let made = 0;
async function account(db: Database, label: string, balance = 0) {
  const n = made++;
  const email = `${label}-${n}@example.com`;
  const number = `+1415555${String(700 + n).padStart(4, '0')}`;
  return db.tx(async (q) => {
    const [{ id }] = (await rawQuery<{ id: number }>(
      q,
      `INSERT INTO accounts (brand, email) VALUES ('numa', $1) RETURNING id`,
      [email],
    )) as [{ id: number }];
    await assignNumber(q, { accountId: id, number });
    if (balance) await credit(q, id, balance);
    const { token } = await createSessionService(db).start(q, id, {});
    return { id, token, number: number.slice(1) };
  });
}

describe.runIf(redisUp)('two servers in one process on one database, joined by Redis', () => {
  let db: Awaited<ReturnType<typeof openTestDb>>;
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    db = await openTestDb();
    const key = prefix();
    for (let i = 0; i < 2; i++) {
      const app = await buildApp({
        env: testEnv({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: key }),
        db,
        mail: new SimulatedMail(),
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
      urls.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    }
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const app of apps) await app.close();
    await db?.drop();
  });

  it("a message sent through one server reaches the other account's socket, and the sender's other tab, on the other", async () => {
    const a = await account(db, 'scale-a', 1);
    const b = await account(db, 'scale-b');
    const sa = await open(urls[0]!, a.token);
    const saOther = await open(urls[1]!, a.token);
    const sb = await open(urls[1]!, b.token);
    const [ia, iaOther, ib] = [inbox(sa), inbox(saOther), inbox(sb)];
    const p = textPayload(a.number, b.number, 'across servers');
    sa.emit('sendMessage', p);
    expect(await ia.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0 });
    expect(await iaOther.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0 });
    expect(await ib.next((m) => m.text === 'across servers')).toMatchObject({
      direction: 'in',
      fromNumber: a.number,
    });
    expect((await money(db, a.id)).balance).toBe(10_000 - 80);
  });

  it('ending a session on one server kicks its sockets on the other', async () => {
    const a = await account(db, 'scale-c');
    const s = await open(urls[1]!, a.token);
    const kicked = new Promise<unknown>((resolve) => s.on('kicked', resolve));
    // a new sign-in, handled by the first server
    await db
      .tx(async (q) => {
        const started = await apps[0]!.deps.sessions.start(q, a.id, {});
        return started;
      })
      .then((started) => apps[0]!.deps.sessions.announceRevoked(a.id, started.revoked, 'elsewhere'));
    expect(Kicked.parse(await kicked).retcode).toBe(100014);
  });
});

describe.runIf(redisUp && !!pgUrl)('two server processes on PostgreSQL and Redis', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const schema = `scale_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let db: Database & { query(text: string, params?: readonly unknown[]): Promise<unknown[]> };
  const children: ChildProcess[] = [];
  const urls: string[] = [];

  /** Starts `test/fixtures/chat-server.ts` in its own Node process; resolves with its URL. */
  async function serve(env: Record<string, string>): Promise<string> {
    const child = spawn(process.execPath, [await bundled('test/fixtures/chat-server.ts')], {
      cwd: path.resolve(here, '..'),
      env: { ...process.env, ...env },
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
          resolve(`http://127.0.0.1:${m[1]}`);
        }
      });
      child.once('exit', (code) => reject(new Error(`server process exited (${code}): ${errors}`)));
    });
  }

  beforeAll(async () => {
    db = withQuery(await openPostgres(pgUrl!, { schema, max: 3 }));
    await migrate(db);
    const url = new URL(pgUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix(),
      WEB_DIST: '/nonexistent',
    };
    urls.push(...(await Promise.all([serve(env), serve(env)])));
  }, 90_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) =>
            c.exitCode !== null ? resolve() : (c.once('exit', () => resolve()), c.kill('SIGTERM')),
          ),
      ),
    );
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await db?.close();
  });

  it("a message sent by a client of one process reaches the other account's client on the other", async () => {
    expect(urls[0]).not.toBe(urls[1]);
    const a = await account(db, 'proc-a', 1);
    const b = await account(db, 'proc-b', 1);
    const sa = await open(urls[0]!, a.token);
    const sb = await open(urls[1]!, b.token);
    const [ia, ib] = [inbox(sa), inbox(sb)];
    const p = textPayload(a.number, b.number, 'from process one');
    sa.emit('sendMessage', p);
    expect(await ia.next((m) => m.smsId === p.smsId, 20_000)).toMatchObject({ status: 0 });
    expect(await ib.next((m) => m.text === 'from process one', 20_000)).toMatchObject({
      direction: 'in',
      fromNumber: a.number,
    });
    // and back
    const r = textPayload(b.number, a.number, 'from process two');
    sb.emit('sendMessage', r);
    expect(await ia.next((m) => m.text === 'from process two', 20_000)).toMatchObject({ direction: 'in' });
    expect((await money(db, a.id)).balance).toBe(10_000 - 80);
    expect((await money(db, b.id)).balance).toBe(10_000 - 80);
  });
});
