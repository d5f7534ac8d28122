import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { runAdmin } from '../src/cli/admin';
import { contextOn } from '../src/cli/context';
import { SimulatedMail } from '../src/providers/mail/simulator';
import { openTestDb, rawQuery, testEnv, type TestDb } from './helpers';
import { apiKeyPattern } from '../src/services/apiKeys';

/**
 * Two servers on one database joined by Redis (issue 21): a key each of them keeps in memory is
 * refused by both at once after a revocation made through either, or by the operator's command in
 * another context. Needs Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379).
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
if (!redisUp) console.warn(`api key revocation across servers skipped: no Redis at ${redisUrl}`);

describe.runIf(redisUp)('a revoked key on a two-server start', () => {
  let db: TestDb;
  const apps: FastifyInstance[] = [];
  const prefix = `numa-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  // keys answer from memory for a minute: only the revocation can end them sooner
  const env = testEnv({ REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, SESSION_CACHE_MS: '60000' });
  let accountId: number;

  beforeAll(async () => {
    db = await openTestDb();
    for (let i = 0; i < 2; i++) {
      const app = await buildApp({ env, db, mail: new SimulatedMail() });
      await app.ready();
      apps.push(app);
    }
    const [row] = await rawQuery<{ id: number }>(
      db.q,
      `INSERT INTO accounts (brand, email) VALUES ('numa', 'keys@example.com') RETURNING id`,
    );
    accountId = row!.id;
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db?.drop();
  });

  /** The operator's command in its own context (its own services on the same database and Redis). */
  async function admin(...argv: string[]) {
    const lines: string[] = [];
    const code = await runAdmin(
      argv,
      { out: (l = '') => lines.push(l), err: (l) => lines.push(l) },
      async (_flags, out) =>
        contextOn(env, db, 'numa', out).then((ctx) => ({ ...ctx, close: async () => {} })),
    );
    return { code, lines };
  }

  const balance = (app: FastifyInstance, key: string) =>
    app.inject({
      method: 'GET',
      url: '/api/v1/balance',
      headers: { host: 'localhost', authorization: `Bearer ${key}` },
    });

  it('the operator makes a key (printed alone on the last line) and lists it', async () => {
    const made = await admin(
      'apikey',
      'create',
      'keys@example.com',
      '--name',
      'ops',
      '--scopes',
      'messages:read,codes',
    );
    expect(made.code).toBe(0);
    expect(made.lines.at(-1)).toMatch(apiKeyPattern);
    const listed = await admin('apikey', 'list', String(accountId));
    expect(listed.lines.join('\n')).toMatch(/\tops\tmessages:read,codes\tnever used\tlive/);
    expect(listed.lines.join('\n')).not.toContain(made.lines.at(-1));
    expect((await admin('apikey', 'create', 'keys@example.com', '--scopes', 'everything')).code).toBe(1);
  });

  it('a key revoked through one server is refused at once by both, though both keep it in memory', async () => {
    const made = await admin('apikey', 'create', 'keys@example.com', '--name', 'web');
    const key = made.lines.at(-1)!;
    for (const app of apps) expect((await balance(app, key)).statusCode).toBe(200);
    const id = (await admin('apikey', 'list', String(accountId))).lines
      .find((l) => l.includes('\tweb\t'))!
      .split('\t')[0]!;
    await apps[0]!.deps.apiKeys.revoke(accountId, id);
    expect((await balance(apps[0]!, key)).statusCode).toBe(401);
    expect((await balance(apps[1]!, key)).statusCode).toBe(401);
  });

  it("the operator's revocation (another process's services) is refused at once by both servers", async () => {
    const made = await admin('apikey', 'create', String(accountId), '--name', 'cli');
    const key = made.lines.at(-1)!;
    for (const app of apps) expect((await balance(app, key)).statusCode).toBe(200);
    const id = (await admin('apikey', 'list', String(accountId))).lines
      .find((l) => l.includes('\tcli\t'))!
      .split('\t')[0]!;
    const revoked = await admin('apikey', 'revoke', String(accountId), id);
    expect(revoked).toMatchObject({ code: 0 });
    for (const app of apps) expect((await balance(app, key)).statusCode).toBe(401);
    expect((await admin('apikey', 'revoke', String(accountId), id)).code).toBe(1);
  });
});
