import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, Kicked } from '@numa/contract';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AccountStatus } from '../src/repositories/accounts';
import { createSessionService, type SessionService } from '../src/services/sessions';
import { client, signIn, testDbKind } from './helpers';
import { connect, startChatApp, until, type ChatClientSocket, type ListeningApp } from './chat-support';

/**
 * Sessions that cannot fork (issue 9, hole 5) and the session cache of the hot path (issue 8): a
 * token replaced by refreshToken serves ordinary calls during its grace only; presented to
 * refreshToken again it is a reuse and the whole family ends; logout ends the whole family. With a
 * long cache (60 s) every revocation still takes effect at once — on this server, and on another one
 * through Redis (two session services on their own Redis clients stand for two servers) — while a
 * change made by hand in the database is not read on the hot path.
 */
const redisUrl = process.env.TEST_REDIS_URL;
let t: ListeningApp;
const sockets: ChatClientSocket[] = [];
const redises: Redis[] = [];
const services: SessionService[] = [];

beforeAll(async () => {
  t = await startChatApp({ envOverrides: { SESSION_CACHE_MS: '60000' } });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const s of services) s.close();
  for (const r of redises) await r.quit().catch(() => {});
  await t?.close();
});

const email = (name: string) => `${name}-${process.pid}-${testDbKind}@example.com`;
const retcodeOf = async (c: ReturnType<typeof client>) =>
  (await c.get(endpoints.getAccountInfo.path)).body.retcode;
const as = (app: FastifyInstance, token: string) => {
  const c = client(app);
  c.setToken(token);
  return c;
};

describe(`a session's family (${testDbKind})`, () => {
  it('a replaced token serves calls in its grace but cannot refresh: that reuse ends the whole family, sockets too', async () => {
    const a = await signIn(t.app, { email: email('fork') });
    const t1 = a.token!;
    const socket = await connect(t.url, t1);
    sockets.push(socket);
    const kicked = new Promise<unknown>((resolve) => socket.on('kicked', resolve));

    const r = await a.get(endpoints.refreshToken.path);
    expect(r.body.retcode).toBe(0);
    const t2 = r.body.data.token as string;
    // the old token, in its grace: ordinary calls only
    expect(await retcodeOf(as(t.app, t1))).toBe(0);
    expect(await retcodeOf(as(t.app, t2))).toBe(0);
    // the old token asks for another token: refused, and the family (t2 included) ends
    expect((await as(t.app, t1).get(endpoints.refreshToken.path)).body.retcode).toBe(100012);
    expect(await retcodeOf(as(t.app, t1))).toBe(100012);
    expect(await retcodeOf(as(t.app, t2))).toBe(100012);
    expect(Kicked.parse(await kicked).retcode).toBe(100012);
    const live = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions s JOIN accounts a ON a.id = s.account_id
        WHERE a.email = $1 AND (s.revoked_at IS NULL OR s.revoke_reason = 'refreshed')`,
      [email('fork')],
    );
    expect(live).toEqual([{ n: 0 }]);
  });

  it('two refreshes of one token at once mint at most one live token; logout ends every token of the family', async () => {
    const a = await signIn(t.app, { email: email('race') });
    const t1 = a.token!;
    const answers = await Promise.all([1, 2, 3].map(() => as(t.app, t1).get(endpoints.refreshToken.path)));
    const minted = answers.filter((x) => x.body.retcode === 0).map((x) => x.body.data.token as string);
    expect(minted.length).toBeLessThanOrEqual(1);
    const working = [];
    for (const tok of [t1, ...minted]) if ((await retcodeOf(as(t.app, tok))) === 0) working.push(tok);
    // a lone winner (no reuse seen yet) keeps its token; otherwise the family ended
    expect(working.filter((tok) => tok !== t1).length).toBeLessThanOrEqual(1);

    const b = await signIn(t.app, { email: email('logout') });
    const b1 = b.token!;
    const b2 = (await b.get(endpoints.refreshToken.path)).body.data.token as string;
    const b3 = (await as(t.app, b2).get(endpoints.refreshToken.path)).body.data.token as string;
    expect(await retcodeOf(as(t.app, b2))).toBe(0); // in its grace
    expect((await as(t.app, b3).post(endpoints.logout.path, {})).body.retcode).toBe(0);
    for (const tok of [b1, b2, b3]) expect(await retcodeOf(as(t.app, tok))).toBe(100012);
  });
});

describe(`the session cache (${testDbKind})`, () => {
  it('answers from memory, yet logout, suspension and sign-in elsewhere take effect at once', async () => {
    const addr = email('cache');
    const a = await signIn(t.app, { email: addr });
    expect(await retcodeOf(a)).toBe(0);
    // a change by hand is not read on the hot path (within the cache's 60 s)...
    await t.db.query(`UPDATE accounts SET status = $2 WHERE email = $1`, [addr, AccountStatus.suspended]);
    expect(await retcodeOf(a)).toBe(0);
    await t.db.query(`UPDATE accounts SET status = $2 WHERE email = $1`, [addr, AccountStatus.active]);
    // ...but the operator's suspension is
    const [{ id }] = (await t.db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [
      addr,
    ])) as [{ id: number }];
    await t.app.deps.operator.setStatus(id, AccountStatus.suspended);
    expect(await retcodeOf(a)).toBe(100008);
    await t.app.deps.operator.setStatus(id, AccountStatus.active);
    expect(await retcodeOf(a)).toBe(0);

    await t.app.inject({ method: 'DELETE', url: `/dev/rate-limits?to=${encodeURIComponent(addr)}` });
    const again = await signIn(t.app, { email: addr });
    expect(await retcodeOf(a)).toBe(100014);
    expect((await again.post(endpoints.logout.path, {})).body.retcode).toBe(0);
    expect(await retcodeOf(again)).toBe(100012);
  });

  it.skipIf(!redisUrl)(
    'a revocation on one server clears what another remembers, through Redis',
    async () => {
      const channel = `sess-test-${process.pid}-${testDbKind}`;
      const servers = [0, 1].map(() => {
        const client = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
        redises.push(client);
        const s = createSessionService(t.db, { ttlMs: 60_000, redis: { client, channel } });
        services.push(s);
        return s;
      });
      const [here, there] = servers as [SessionService, SessionService];
      await Promise.all(servers.map((s) => s.ready()));
      const a = await signIn(t.app, { email: email('redis') });
      const session = await there.authenticate(a.token!, 'numa');
      // remembered there: the logout goes through the other server
      await here.logout(await here.authenticate(a.token!, 'numa'));
      await until(async () => {
        try {
          await there.authenticate(a.token!, 'numa');
          return false;
        } catch (err) {
          return (err as { retcode?: number }).retcode === 100012;
        }
      }, 5_000);
      expect(session.accountId).toBeGreaterThan(0);
    },
  );
});
