import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, type BuildOptions } from '../src/app';
import { migrate } from '../src/db/migrate';
import { openPglite } from '../src/db/pglite';
import { openPostgres } from '../src/db/postgres';
import type { Database } from '../src/db';
import { loadEnv, type Env } from '../src/env';
import { SimulatedMail } from '../src/providers/mail/simulator';

/** Which database this run proves: PGlite by default, PostgreSQL when the project sets NUMA_TEST_DB. */
export const testDbKind = process.env.NUMA_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A fresh, migrated database for one suite: a copy of the PGlite template, or a new PostgreSQL schema. */
export async function openTestDb(): Promise<Database & { drop(): Promise<void> }> {
  if (testDbKind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('NUMA_TEST_DB=postgres needs TEST_DATABASE_URL');
    const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const db = await openPostgres(url, { schema, max: 5 });
    await migrate(db);
    return {
      ...db,
      async drop() {
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
        await db.close();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'numa-pglite-'));
  cpSync(inject('pgliteTemplate'), dir, { recursive: true });
  const db = await openPglite(dir);
  await migrate(db);
  return {
    ...db,
    async drop() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Test servers keep their media under the OS temp folder, never in the repository's ./data. */
const testDataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-test-data-'));

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: '/nonexistent',
    DATA_DIR: testDataDir,
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Database & { drop(): Promise<void> };
  mail: SimulatedMail;
  close(): Promise<void>;
}

export async function startTestApp(opts: Partial<BuildOptions> & { envOverrides?: Record<string, string> } = {}): Promise<TestApp> {
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
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>, extra: Partial<InjectOptions> = {}) => {
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
    return { status: res.statusCode, body: res.json() as { retcode: number; retmsg: string; data: AnyJson }, headers: res.headers };
  };
  return {
    call,
    get: (url: string, q?: Record<string, unknown>, extra?: Partial<InjectOptions>) => call('GET', url, q, extra),
    post: (url: string, b?: Record<string, unknown>, extra?: Partial<InjectOptions>) => call('POST', url, b, extra),
    setToken(t: string | undefined) {
      token = t;
    },
    get token() {
      return token;
    },
  };
}

/** Reads the answer of a captcha from the dev route, as the E2E tests and newcomers do. */
export async function solveCaptcha(app: FastifyInstance, captchaId: string, host = 'localhost'): Promise<string> {
  await app.inject({ method: 'GET', url: `/web/genCaptcha?captchaId=${captchaId}`, headers: { host } });
  const res = await app.inject({ method: 'GET', url: `/dev/captcha?captchaId=${captchaId}`, headers: { host } });
  return (res.json() as { text: string }).text;
}

/** The newest code sent to an address, from the dev outbox. */
export async function lastCode(app: FastifyInstance, to: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` });
  const { messages } = res.json() as { messages: { code: string }[] };
  if (!messages[0]) throw new Error(`no code sent to ${to}`);
  return messages[0].code;
}

let captchaSeq = 0;
export const newCaptchaId = () => `cap${Date.now().toString(36)}${(captchaSeq++).toString(36)}x${Math.random().toString(36).slice(2, 8)}`;

/** Signs in through preLogin and login, as a person would; returns the client holding the token. */
export async function signIn(app: FastifyInstance, address: { email: string } | { telCode: string; phone: string }, host = 'localhost') {
  const c = client(app, host);
  const captchaId = newCaptchaId();
  const inputCaptcha = await solveCaptcha(app, captchaId, host);
  const pre = await c.post('/web/preLogin', { ...address, captchaId, inputCaptcha });
  if (pre.body.retcode !== 0) throw new Error(`preLogin failed: ${JSON.stringify(pre.body)}`);
  const to = 'email' in address ? address.email : `${address.telCode}${address.phone}`;
  const code = await lastCode(app, to);
  const res = await c.post('/web/login', { ...address, code });
  if (res.body.retcode !== 0) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  c.setToken(res.body.data.token);
  return c;
}
