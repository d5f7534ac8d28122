import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constants, endpoints, toMinor } from '@numa/contract';
import { buildApp } from '../src/app';
import { ManualClock } from '../src/lib/clock';
import { DAY_MS } from '../src/lib/dates';
import { scheduledSmsId } from '../src/services/scheduled';
import { startTestApp, testDbKind, testEnv, type TestApp } from './helpers';
import { makeUser, money } from './chat-support';

/**
 * Scheduled messages (issue 22 §2), on PGlite and on PostgreSQL (server-pg): sent by the jobs module
 * at their time (the app's ManualClock, then `jobs.drain()`), once, across a restart and two servers;
 * charged when sent; cancelled ones never go; a balance too short at send time fails the message.
 */
const clock = new ManualClock(Date.parse('2026-05-04T09:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

const minute = 60_000;
let seq = 0;
/** A fresh own number (valid US numbers, one per test user). */
const nextNumber = () => `+1415555${String(1000 + seq++).padStart(4, '0')}`;
/** A number off the platform (the simulated carrier "sends" to it). */
const outside = '12125550199';

async function user(balance = 20) {
  return makeUser(t, { number: nextNumber(), balance });
}
type User = Awaited<ReturnType<typeof user>>;

const schedule = (u: User, body: Record<string, unknown>) =>
  u.c.post(endpoints.scheduleMessage.path, { fromNumber: u.number, toNumber: outside, ...body });
const list = async (u: User, to = outside) =>
  (await u.c.get(endpoints.getScheduledMessages.path, { fromNumber: u.number, toNumber: to })).body.data
    .scheduled as {
    id: string;
    status: string;
    version: number;
    text: string;
    sendAt: number;
    retcode?: number;
    retmsg: string;
  }[];

/** The ledger invariant: the account's bills sum to its balance; and its SMS bills. */
async function books(accountId: number) {
  const m = await money(t.db, accountId);
  const sum = m.bills.reduce((s, b) => s + Number(b.charge), 0);
  expect(sum).toBe(Number(m.balance));
  return { balance: Number(m.balance), sms: m.bills.filter((b) => b.type === constants.billTypes.sms) };
}

async function messagesOf(accountId: number, smsId: string) {
  return t.db.query<{ id: number; status: number }>(
    'SELECT id, status FROM messages WHERE account_id = $1 AND sms_id = $2',
    [accountId, smsId],
  );
}

describe(`scheduled messages (${testDbKind})`, () => {
  it('goes once at its time, charged when sent, not when scheduled', async () => {
    const a = await user();
    const before = await books(a.accountId);
    const sendAt = clock.now() + 30 * minute;
    const r = await schedule(a, { text: 'Happy birthday! 生日快乐', sendAt });
    expect(r.status).toBe(200);
    expect(r.body.data.scheduled).toMatchObject({ status: 'waiting', version: 1, sendAt, retmsg: '' });
    const id = r.body.data.scheduled.id as string;
    expect((await books(a.accountId)).balance).toBe(before.balance);
    expect((await list(a)).map((s) => s.id)).toEqual([id]);

    // not yet
    clock.advance(29 * minute);
    await t.app.deps.jobs.drain();
    expect((await list(a))[0]!.status).toBe('waiting');
    expect(await messagesOf(a.accountId, scheduledSmsId(Number(id)))).toHaveLength(0);

    clock.advance(2 * minute);
    await t.app.deps.jobs.drain();
    const [msg] = await messagesOf(a.accountId, scheduledSmsId(Number(id)));
    expect(msg).toBeDefined();
    expect(msg!.status).toBe(constants.messageStatus.sent);
    const after = await books(a.accountId);
    expect(after.sms).toHaveLength(1);
    expect(after.balance).toBe(before.balance + Number(after.sms[0]!.charge));
    // sent ones leave the conversation's list (the message itself is in the conversation)
    expect(await list(a)).toEqual([]);

    clock.advance(60 * minute);
    await t.app.deps.jobs.drain();
    expect((await books(a.accountId)).sms).toHaveLength(1);
  });

  it('survives a restart: a new server on the same database sends it once', async () => {
    const a = await user();
    const first = await buildApp({ env: testEnv(), db: t.db, mail: t.mail, clock });
    await first.ready();
    const c = a.c;
    const sendAt = clock.now() + 10 * minute;
    // scheduled through the first server, which then stops
    const res = await first.inject({
      method: 'POST',
      url: endpoints.scheduleMessage.path,
      query: { languagecode: 'en', t: '1', webVersion: 'test' },
      headers: { host: 'localhost', 'auth-token': c.token! },
      payload: { platform: 'numa', fromNumber: a.number, toNumber: outside, text: 'after restart', sendAt },
    });
    expect(res.json()).toMatchObject({ retcode: 0 });
    const id = Number(res.json().data.scheduled.id);
    await first.close();

    clock.advance(11 * minute);
    const second = await buildApp({ env: testEnv(), db: t.db, mail: t.mail, clock });
    await second.ready();
    try {
      await second.deps.jobs.drain();
    } finally {
      await second.close();
    }
    await t.app.deps.jobs.drain();
    expect(await messagesOf(a.accountId, scheduledSmsId(id))).toHaveLength(1);
    expect((await books(a.accountId)).sms).toHaveLength(1);
  });

  it('two servers draining at once: each message goes and is billed once', async () => {
    const users = await Promise.all([user(), user(), user()]);
    const ids: { u: User; id: number }[] = [];
    for (const u of users)
      for (let i = 0; i < 6; i++) {
        const r = await schedule(u, { text: `batch ${i}`, sendAt: clock.now() + 5 * minute + i * 1000 });
        ids.push({ u, id: Number(r.body.data.scheduled.id) });
      }
    clock.advance(6 * minute);
    const second = await buildApp({ env: testEnv(), db: t.db, mail: t.mail, clock });
    await second.ready();
    try {
      await Promise.all([t.app.deps.jobs.drain(), second.deps.jobs.drain()]);
    } finally {
      await second.close();
    }
    await t.app.deps.jobs.drain();
    for (const { u, id } of ids) expect(await messagesOf(u.accountId, scheduledSmsId(id))).toHaveLength(1);
    for (const u of users) {
      expect((await books(u.accountId)).sms).toHaveLength(6);
      expect(await list(u)).toEqual([]);
    }
  });

  it('a cancelled one never goes; cancel racing the send: one of the two wins, consistently', async () => {
    const a = await user();
    const r = await schedule(a, { text: 'never', sendAt: clock.now() + 5 * minute });
    const id = r.body.data.scheduled.id as string;
    const cancelled = await a.c.post(endpoints.cancelScheduledMessage.path, { id });
    expect(cancelled.body).toMatchObject({ retcode: 0, data: { scheduled: { status: 'cancelled' } } });
    // cancelling again is the same answer
    expect((await a.c.post(endpoints.cancelScheduledMessage.path, { id })).body.retcode).toBe(0);
    expect(await list(a)).toEqual([]);
    clock.advance(10 * minute);
    await t.app.deps.jobs.drain();
    expect(await messagesOf(a.accountId, scheduledSmsId(Number(id)))).toHaveLength(0);
    expect((await books(a.accountId)).sms).toHaveLength(0);

    // races: the job's claim and the user's cancel on the same due row
    for (let i = 0; i < 4; i++) {
      const s = await schedule(a, { text: `race ${i}`, sendAt: clock.now() + 2 * minute });
      const sid = Number(s.body.data.scheduled.id);
      clock.advance(3 * minute);
      const [cancel] = await Promise.all([
        a.c.post(endpoints.cancelScheduledMessage.path, { id: String(sid) }),
        t.app.deps.scheduled.sendOne(sid, 1),
      ]);
      await t.app.deps.jobs.drain();
      const sent = await messagesOf(a.accountId, scheduledSmsId(sid));
      if (cancel.body.retcode === 0) expect(sent).toHaveLength(0);
      else {
        expect(cancel.status).toBe(400);
        expect(cancel.body.retcode).toBe(400000);
        expect(sent).toHaveLength(1);
      }
    }
    await books(a.accountId);
  });

  it('a row left sending by a crash goes once, also when its message was already stored', async () => {
    const a = await user();
    const one = await schedule(a, { text: 'claimed, then died', sendAt: clock.now() + 2 * minute });
    const two = await schedule(a, { text: 'stored, then died', sendAt: clock.now() + 2 * minute });
    const id1 = Number(one.body.data.scheduled.id);
    const id2 = Number(two.body.data.scheduled.id);
    clock.advance(3 * minute);
    // the first: claimed (waiting → sending) by a server that died before it sent
    await t.db.query(`UPDATE scheduled_messages SET status = 'sending' WHERE id = $1`, [id1]);
    // the second: claimed and sent through the send path, the server died before it recorded that
    await t.db.query(`UPDATE scheduled_messages SET status = 'sending' WHERE id = $1`, [id2]);
    const sent = await t.app.deps.chats.send(
      { accountId: a.accountId, brand: 'numa' },
      {
        fromNumber: a.number,
        toNumber: outside,
        text: 'stored, then died',
        msgType: 'sms',
        smsId: scheduledSmsId(id2),
        platform: 'numa',
        languagecode: 'en',
      },
    );
    expect(sent.kind).toBe('stored');
    await t.app.deps.jobs.drain();
    expect(await messagesOf(a.accountId, scheduledSmsId(id1))).toHaveLength(1);
    expect(await messagesOf(a.accountId, scheduledSmsId(id2))).toHaveLength(1);
    expect((await books(a.accountId)).sms).toHaveLength(2);
    const rows = await t.db.query<{ status: string }>(
      'SELECT status FROM scheduled_messages WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[id1, id2]],
    );
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('edits: text and time change under a new version; the old time sends nothing; stale versions are refused', async () => {
    const a = await user();
    const b = await user();
    const r = await schedule(a, { text: 'first', sendAt: clock.now() + 10 * minute });
    const id = r.body.data.scheduled.id as string;
    const edited = await a.c.post(endpoints.editScheduledMessage.path, {
      id,
      version: 1,
      text: 'second',
      sendAt: clock.now() + 60 * minute,
    });
    expect(edited.body.data.scheduled).toMatchObject({ text: 'second', version: 2, status: 'waiting' });
    // someone else's, a stale version
    expect(
      (
        await b.c.post(endpoints.editScheduledMessage.path, {
          id,
          version: 2,
          text: 'x',
          sendAt: clock.now() + 20 * minute,
        })
      ).body.retcode,
    ).toBe(100002);
    const stale = await a.c.post(endpoints.editScheduledMessage.path, {
      id,
      version: 1,
      text: 'third',
      sendAt: clock.now() + 20 * minute,
    });
    expect(stale.status).toBe(400);
    expect(stale.body.retcode).toBe(400000);
    expect((await b.c.post(endpoints.cancelScheduledMessage.path, { id })).body.retcode).toBe(100002);

    // the first version's time passes: nothing goes
    clock.advance(15 * minute);
    await t.app.deps.jobs.drain();
    expect(await messagesOf(a.accountId, scheduledSmsId(Number(id)))).toHaveLength(0);
    expect((await list(a))[0]).toMatchObject({ text: 'second', status: 'waiting' });
    // the second's does
    clock.advance(50 * minute);
    await t.app.deps.jobs.drain();
    const [m] = await t.db.query<{ text: string }>(
      'SELECT text FROM messages WHERE account_id = $1 AND sms_id = $2',
      [a.accountId, scheduledSmsId(Number(id))],
    );
    expect(m?.text).toBe('second');
    // too late to change or cancel now
    const late = await a.c.post(endpoints.editScheduledMessage.path, {
      id,
      version: 2,
      text: 'late',
      sendAt: clock.now() + 20 * minute,
    });
    expect(late.body.retcode).toBe(400000);
    expect(late.body.retmsg).toMatch(/already/);
    expect((await a.c.post(endpoints.cancelScheduledMessage.path, { id })).body.retcode).toBe(400000);
  });

  it('refuses bad input with the right retcode and a 4xx, never a 500', async () => {
    const a = await user();
    const now = clock.now();
    const cases: [Record<string, unknown>, number][] = [
      [{ text: 'x', sendAt: now - minute }, 400000],
      [{ text: 'x', sendAt: now + 10_000 }, 400000],
      [{ text: 'x', sendAt: now + (constants.scheduled.maxAheadDays + 1) * DAY_MS }, 400000],
      [{ text: '', sendAt: now + 5 * minute }, 100001],
      [{ text: '   ', sendAt: now + 5 * minute }, 100001],
      [{ text: 'x'.repeat(constants.scheduled.textMax + 1), sendAt: now + 5 * minute }, 100001],
      [{ text: 'x', sendAt: 'tomorrow' }, 100001],
      [{ text: 'x', sendAt: now + 5 * minute, extra: 1 }, 100001],
      [{ text: 'x', sendAt: now + 5 * minute, toNumber: 'abc' }, 100001],
      [{ text: 'x', sendAt: now + 5 * minute, toNumber: '19999' }, 300031],
      [{ text: 'x', sendAt: now + 5 * minute, toNumber: a.number }, 300031],
      [{ text: 'x', sendAt: now + 5 * minute, fromNumber: '14155550000' }, 300032],
    ];
    for (const [body, code] of cases) {
      const r = await schedule(a, body);
      expect({ body, retcode: r.body.retcode }).toEqual({ body, retcode: code });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    // the longest text and the farthest day pass
    expect(
      (await schedule(a, { text: 'y'.repeat(constants.scheduled.textMax), sendAt: now + 365 * DAY_MS })).body
        .retcode,
    ).toBe(0);
    for (const [path, body] of [
      [endpoints.editScheduledMessage.path, { id: 'x', version: 1, text: 'a', sendAt: now + 5 * minute }],
      [endpoints.editScheduledMessage.path, { id: '1', version: 0, text: 'a', sendAt: now + 5 * minute }],
      [endpoints.cancelScheduledMessage.path, { id: '-1' }],
      [endpoints.cancelScheduledMessage.path, { id: '999999999' }],
    ] as const) {
      const r = await a.c.post(path, body);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    const bad = await a.c.get(endpoints.getScheduledMessages.path, { fromNumber: 'x', toNumber: outside });
    expect(bad.body.retcode).toBe(100001);
    // without a session
    a.c.setToken(undefined);
    expect((await schedule(a, { text: 'x', sendAt: now + 5 * minute })).status).toBe(401);
  });

  it(`keeps at most ${constants.scheduled.maxWaiting} waiting per account, even when schedules race`, async () => {
    const a = await user();
    await t.db.query(
      `INSERT INTO scheduled_messages (account_id, brand, own_full_number, other_full_number, text, send_at)
       SELECT $1, 'numa', $2, $3, 'n' || g, $4::timestamptz FROM generate_series(1, $5::int) g`,
      [a.accountId, a.number, outside, new Date(clock.now() + DAY_MS), constants.scheduled.maxWaiting - 2],
    );
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        schedule(a, { text: `race ${i}`, sendAt: clock.now() + 5 * minute }),
      ),
    );
    expect(results.filter((r) => r.body.retcode === 0)).toHaveLength(2);
    const full = results.filter((r) => r.body.retcode !== 0);
    expect(full[0]!.body.retcode).toBe(400000);
    expect(full[0]!.body.retmsg).toMatch(String(constants.scheduled.maxWaiting));
    await t.db.query(`UPDATE scheduled_messages SET status = 'cancelled' WHERE account_id = $1`, [
      a.accountId,
    ]);
  });

  it('a balance too short at send time fails it visibly (400001), charging nothing', async () => {
    const a = await user(0);
    const r = await schedule(a, { text: 'no credit', sendAt: clock.now() + 5 * minute });
    expect(r.body.retcode).toBe(0);
    const id = r.body.data.scheduled.id as string;
    clock.advance(6 * minute);
    await t.app.deps.jobs.drain();
    const [failed] = await list(a);
    expect(failed).toMatchObject({ id, status: 'failed', retcode: 400001 });
    expect(failed!.retmsg.length).toBeGreaterThan(0);
    expect(await messagesOf(a.accountId, scheduledSmsId(Number(id)))).toHaveLength(0);
    expect((await books(a.accountId)).sms).toHaveLength(0);

    // recharged, then edited back to waiting: it goes at the new time
    await t.db.tx(async (tx) => {
      const { credit } = await import('./chat-support');
      await credit(tx, a.accountId, 5);
    });
    const again = await a.c.post(endpoints.editScheduledMessage.path, {
      id,
      version: 1,
      text: 'no credit',
      sendAt: clock.now() + 2 * minute,
    });
    expect(again.body.data.scheduled).toMatchObject({ status: 'waiting', version: 2 });
    clock.advance(3 * minute);
    await t.app.deps.jobs.drain();
    expect(await messagesOf(a.accountId, scheduledSmsId(Number(id)))).toHaveLength(1);
    const b = await books(a.accountId);
    expect(b.sms).toHaveLength(1);
    expect(b.balance).toBe(Number(toMinor(5)) + Number(b.sms[0]!.charge));
  });
});
