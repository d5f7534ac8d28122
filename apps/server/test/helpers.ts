import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app';
import { migrate } from '../src/db/migrate';
import { openPglite } from '../src/db/pglite';
import { openPostgres } from '../src/db/postgres';
import { adminQuery, databaseUrl } from './pg-template';
import type { Database, Q } from '../src/db';
import { raw } from '../src/db/raw';
import { loadEnv, type Env } from '../src/env';
import { SimulatedMail } from '../src/providers/mail/simulator';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import {
  constants,
  type BillTypeName,
  type CaptchaImage,
  type Minor,
  type PowChallenge,
} from '@numa/contract';
import type { BalanceChange, BillOptionsFor } from '../src/repositories/ledger';
import type { IdemKey } from '../src/lib/idem';

/** Which database this run proves: PGlite by default, PostgreSQL when the project sets NUMA_TEST_DB. */
export const testDbKind = process.env.NUMA_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A hand-written statement on a handle (the database root or a transaction): tests read and poke rows with it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever they assert
export const rawQuery = <T = any>(q: Q, text: string, params: readonly unknown[] = []) =>
  raw<T>(q, text, params);

export type TestDb = Database & {
  drop(): Promise<void>;
  /** On PostgreSQL: the URL of this suite's own database (another connection to it, e.g. the admin command's). */
  pgUrl?: string;
  /** A hand-written statement on the database root. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever they assert
  query<T = any>(text: string, params?: readonly unknown[]): Promise<T[]>;
};

/** Adds the test-only raw `query` to a database. */
export const withQuery = <D extends Database>(db: D): D & Pick<TestDb, 'query'> =>
  Object.assign(db, {
    query: <T>(text: string, params: readonly unknown[] = []) => raw<T>(db.q, text, params),
  });

/**
 * A fresh, migrated database for one suite: a copy of the PGlite template, or on PostgreSQL a database
 * of its own cloned from the migrated template (test/pg-template.ts; `pgUrl` reaches it).
 */
export async function openTestDb(): Promise<TestDb> {
  if (testDbKind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('NUMA_TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `numa_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(url, `CREATE DATABASE "${name}" TEMPLATE "${inject('pgTemplate')}"`);
    // a commit does not wait for its WAL to reach the disk (a fsync took 7–9 ms on this disk): what a
    // suite checks is what other sessions see, which is the same; only a crash of PostgreSQL itself,
    // which no suite causes, could lose the last commits (scale suites at 2,000 rows: 10–30% faster)
    await adminQuery(url, `ALTER DATABASE "${name}" SET synchronous_commit TO off`);
    const pgUrl = databaseUrl(url, name);
    const db = withQuery(await openPostgres(pgUrl, { max: 5 }));
    // the template is migrated: one read
    await migrate(db);
    return Object.assign(db, {
      pgUrl,
      async drop() {
        await db.close();
        await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
      },
    });
  }
  // in memory, loaded from the template's tarball: copying the template's folder and deleting it
  // again took 0.4–1.7 s of disk work per suite
  template ??= new Blob([readFileSync(inject('pgliteTarball'))]);
  const db = withQuery(await openPglite(undefined, template));
  await migrate(db);
  return Object.assign(db, {
    async drop() {
      await db.close();
    },
  });
}

/** The PGlite template's tarball, read once per worker (test/global-setup.ts). */
let template: Blob | undefined;

/** Test servers keep their media under the OS temp folder, never in the repository's ./data. */
const testDataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-test-data-'));

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: '/nonexistent',
    DATA_DIR: testDataDir,
    // the captcha's proof of work, small: suites sign in hundreds of times (its own test uses the default)
    CAPTCHA_POW_MAX: '200',
    // suites change sessions and accounts in the database by hand and expect it at once (the cache has its own suite)
    SESSION_CACHE_MS: '0',
    // no speech-to-text unless a suite asks for one (the numbers suite uses the simulator)
    STT: 'none',
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: TestDb;
  mail: SimulatedMail;
  close(): Promise<void>;
}

export async function startTestApp(
  opts: Partial<BuildOptions> & { envOverrides?: Record<string, string> } = {},
): Promise<TestApp> {
  const db = await openTestDb();
  const mail = new SimulatedMail();
  const app = await buildApp({ env: testEnv(opts.envOverrides), db, mail, ...opts });
  await app.ready();
  return {
    app,
    db,
    mail,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever they assert
type AnyJson = any;

let ipCounter = 0;

/** A small client that speaks the envelope like the web client does. */
export function client(app: FastifyInstance, host = 'localhost') {
  let token: string | undefined;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    extra: Partial<InjectOptions> = {},
  ) => {
    const brand = host.split('.')[0] === 'localhost' ? 'numa' : host.split('.')[0];
    const withPlatform = method === 'POST' || method === 'PUT' ? { platform: brand, ...payload } : undefined;
    const query = method === 'GET' || method === 'DELETE' ? { ...(payload as Record<string, string>) } : {};
    const res = await app.inject({
      method,
      url,
      query: { languagecode: 'en', t: String(Date.now()), webVersion: 'test', ...query },
      headers: { host, ...(token ? { 'auth-token': token } : {}), ...(extra.headers ?? {}) },
      ...(withPlatform ? { payload: withPlatform } : {}),
      remoteAddress: extra.remoteAddress ?? `10.0.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`,
    });
    return {
      status: res.statusCode,
      body: res.json() as { retcode: number; retmsg: string; data: AnyJson },
      headers: res.headers,
    };
  };
  return {
    call,
    get: (url: string, q?: Record<string, unknown>, extra?: Partial<InjectOptions>) =>
      call('GET', url, q, extra),
    post: (url: string, b?: Record<string, unknown>, extra?: Partial<InjectOptions>) =>
      call('POST', url, b, extra),
    setToken(t: string | undefined) {
      token = t;
    },
    get token() {
      return token;
    },
  };
}

/** Reads the answer of a captcha from the dev route, as the E2E tests and newcomers do. */
export async function solveCaptcha(
  app: FastifyInstance,
  captchaId: string,
  host = 'localhost',
): Promise<string> {
  return (await captchaProof(app, captchaId, host)).inputCaptcha;
}

/** Works out a proof-of-work challenge as the web client's worker does (altcha-lib); the contract's `pow`. */
export async function solvePow(challenge: PowChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('proof of work not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/**
 * Draws a captcha and solves it as a person and their browser would: the answer from the dev route,
 * the proof of work worked out. Spread it into preLogin or confirmCaptcha.
 */
export async function captchaProof(app: FastifyInstance, captchaId: string, host = 'localhost') {
  // drawn from addresses of their own (30 drawings per address a minute), read back over loopback (dev route)
  const remoteAddress = `10.250.${Math.floor(ipCounter / 250) % 250}.${(ipCounter++ % 250) + 1}`;
  const drawn = await app.inject({
    method: 'GET',
    url: `/web/genCaptcha?captchaId=${captchaId}`,
    headers: { host },
    remoteAddress,
  });
  const image = (drawn.json() as { data: CaptchaImage }).data;
  const res = await app.inject({
    method: 'GET',
    url: `/dev/captcha?captchaId=${captchaId}`,
    headers: { host },
  });
  return { captchaId, inputCaptcha: (res.json() as { text: string }).text, pow: await solvePow(image.pow) };
}

/** The newest code sent to an address, from the dev outbox. */
export async function lastCode(app: FastifyInstance, to: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` });
  const { messages } = res.json() as { messages: { code: string }[] };
  if (!messages[0]) throw new Error(`no code sent to ${to}`);
  return messages[0].code;
}

let captchaSeq = 0;
export const newCaptchaId = () =>
  `cap${Date.now().toString(36)}${(captchaSeq++).toString(36)}x${Math.random().toString(36).slice(2, 8)}`;

/** Signs in through preLogin and login, as a person would; returns the client holding the token. */
export async function signIn(
  app: FastifyInstance,
  address: { email: string } | { telCode: string; phone: string },
  host = 'localhost',
) {
  const c = client(app, host);
  const pre = await c.post('/web/preLogin', {
    ...address,
    ...(await captchaProof(app, newCaptchaId(), host)),
  });
  if (pre.body.retcode !== 0) throw new Error(`preLogin failed: ${JSON.stringify(pre.body)}`);
  const to = 'email' in address ? address.email : `${address.telCode}${address.phone}`;
  const code = await lastCode(app, to);
  const res = await c.post('/web/login', { ...address, code });
  if (res.body.retcode !== 0) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  c.setToken(res.body.data.token);
  return c;
}

/** Options each bill type is written with (typed by the contract's shapes), for suites that test the ledger itself. */
const sampleBillOptions: { [K in BillTypeName]: BillOptionsFor<K> } = (() => {
  const topUp = { amount: 10, gift: 0, purchaseMethod: 'creditCard', orderId: '1' };
  const returned = { ...topUp, provider: 'sandbox', refundId: 'r1' };
  const sms = { direction: 'out', from: '15550000001', to: '15550000002', type: 'sms', count: 1 } as const;
  return {
    recharge: topUp,
    sms,
    mms: { ...sms, type: 'mms' },
    call: { direction: 'in', from: '15550000002', to: '15550000001', type: 'forward', duration: 60 },
    numberRent: { number: '15550000001', type: 1, validityType: constants.validityTypes.month },
    codeReceive: { number: '15550000001', countryCode: 'US', app: 'test' },
    inviteBonus: { amount: 0.2, purchaseMethod: 'invite', inviteCode: 'TEST' },
    refund: { ...sms, successCount: 0 },
    adjustment: { note: 'test', by: 'operator' },
    redeemBonus: { amount: 0.2, purchaseMethod: 'invite', inviteCode: 'TEST' },
    topUpRefund: returned,
    chargeback: { ...topUp, provider: 'sandbox', disputeId: 'd1' },
    chargebackReversed: { ...topUp, provider: 'sandbox', disputeId: 'd1' },
    refundReversed: returned,
    simOrPlanOrder: { orderId: '1', cardType: 1, validityType: 1, planCount: 1, days: 30 },
  };
})();

/** A bill of a type with its type's sample options, for suites that test the ledger's arithmetic and keys. */
export function testBill(
  accountId: number,
  type: number,
  charge: Minor,
  idempotencyKey?: IdemKey,
): BalanceChange {
  const name = Object.entries(constants.billTypes).find(([, v]) => v === type)?.[0] as
    BillTypeName | undefined;
  if (!name) throw new Error(`no bill type ${type}`);
  return {
    accountId,
    type,
    charge,
    options: sampleBillOptions[name],
    ...(idempotencyKey ? { idempotencyKey } : {}),
  } as BalanceChange;
}

/**
 * The operator command (`npm run admin`) against an embedded database of its own, a copy of the
 * migrated template in a folder of its own (DATA_DIR), opened once for the suite. `run` hands each
 * command that open database, as the command itself does once it has opened it (cli/context.ts
 * `contextOn`); `runLocal` closes it first and lets the command open the folder itself
 * (`openLocal`), the whole path an operator's command takes. Opening and closing the folder for every
 * command took 2–4 s each on a loaded machine (two suites: 155 s of a run's 1,400).
 */
export async function embeddedAdmin(prefix: string, seed: string) {
  const { runAdmin } = await import('../src/cli/admin');
  const { brandFlag, contextOn } = await import('../src/cli/context');
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(inject('pgliteTemplate'), path.join(dir, 'pg'), { recursive: true });
  const saved = { ...process.env };
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  process.env.LOG_LEVEL = 'silent';
  let db: Database | null = null;
  const open = async () => (db ??= await openPglite(path.join(dir, 'pg')));
  await rawQuery((await open()).q, seed);
  const runCommand = async (argv: string[], local: boolean) => {
    const lines: string[] = [];
    const errors: string[] = [];
    const io = { out: (l = '') => lines.push(l), err: (l: string) => errors.push(l) };
    let code;
    if (local) {
      await db?.close();
      db = null;
      code = await runAdmin(argv, io);
    } else {
      const shared = await open();
      code = await runAdmin(argv, io, async (flags, out) => {
        const env = loadEnv();
        // the command's close would close the suite's database: it stays open for the next command
        return { ...(await contextOn(env, shared, brandFlag(flags, env), out)), close: async () => {} };
      });
    }
    return { code, text: lines.join('\n'), error: errors.join('\n') };
  };
  return {
    dir,
    run: (...argv: string[]) => runCommand(argv, false),
    runLocal: (...argv: string[]) => runCommand(argv, true),
    async close() {
      await db?.close();
      process.env = saved;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
