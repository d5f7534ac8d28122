import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKind } from './helpers';
import { makeUser, money, startChatApp, textPayload, type ListeningApp } from './chat-support';

/**
 * The send path's durable work in one statement (issue 8): the bill, A's copy, B's copy when B's
 * number is on the platform, the carrier job otherwise. A race of sends and replays against a balance
 * that pays for only some of them: each smsId is charged at most once, nothing goes below zero, the
 * bills sum to the balance, and every stored send has exactly its copies.
 */
let t: ListeningApp;
beforeAll(async () => {
  t = await startChatApp();
});
afterAll(async () => {
  await t?.close();
});

describe(`a send in one statement (${testDbKind})`, () => {
  it('races of sends and replays: charged once per smsId, never below zero, bills = balance, copies complete', async () => {
    // 0.04 pays for exactly five texts of 80 ten-thousandths
    const a = await makeUser(t, { number: '+14155550931', balance: 0.04 });
    const b = await makeUser(t, { number: '+14155550932' });
    const chats = t.app.deps.chats;
    const sender = { accountId: a.accountId, brand: 'numa' as const };
    const onPlatform = Array.from({ length: 6 }, (_, i) => textPayload(a.number, b.number, `race ${i}`));
    const offPlatform = Array.from({ length: 4 }, (_, i) =>
      textPayload(a.number, '12125550933', `away ${i}`),
    );
    const all = [...onPlatform, ...offPlatform];
    // every send twice at once (a resend racing its original)
    const results = await Promise.all([...all, ...all].map((p) => chats.send(sender, p)));

    const stored = new Set(
      results.filter((r) => r.kind === 'stored').map((r) => (r.kind === 'stored' ? r.row.smsId : '')),
    );
    const refused = results.filter((r) => r.kind === 'refused');
    expect(stored.size).toBe(5);
    expect(refused.every((r) => r.kind === 'refused' && r.retcode === 400001)).toBe(true);
    // a replay never stores twice: every smsId answered 'stored' at most once
    expect(results.filter((r) => r.kind === 'stored')).toHaveLength(5);

    const { balance, bills } = await money(t.db, a.accountId);
    expect(balance).toBe(0);
    expect(bills.reduce((s, x) => s + x.charge, 0)).toBe(balance);
    expect(bills.filter((x) => x.type === 2)).toHaveLength(5);

    const mine = await t.db.query<{
      sms_id: string;
      status: number;
      carrier: string;
      other_full_number: string;
    }>(`SELECT sms_id, status, carrier, other_full_number FROM messages WHERE account_id = $1`, [
      a.accountId,
    ]);
    expect(new Set(mine.map((m) => m.sms_id))).toEqual(stored);
    const toB = mine.filter((m) => m.other_full_number === b.number);
    // on the platform: delivered in the same statement, both copies 'sent', no carrier
    expect(toB.every((m) => m.status === 0 && m.carrier === 'platform')).toBe(true);
    const copies = await t.db.query<{ text: string; status: number }>(
      `SELECT text, status FROM messages WHERE account_id = $1 AND direction = 'in'`,
      [b.accountId],
    );
    expect(copies).toHaveLength(toB.length);
    expect(copies.every((c) => c.status === 0)).toBe(true);
    const chat = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM chats WHERE account_id = $1 AND last_message_id IS NOT NULL`,
      [b.accountId],
    );
    expect(chat).toEqual([{ n: toB.length ? 1 : 0 }]);
    // off the platform: one carrier job each, born claimed (run at once by the simulator: gone or sent)
    const away = mine.filter((m) => m.other_full_number === '12125550933');
    const jobs = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE name = 'carrier.send' AND failed_at IS NOT NULL`,
    );
    expect(jobs).toEqual([{ n: 0 }]);
    expect(away.length + toB.length).toBe(5);
  });
});
