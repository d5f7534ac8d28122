import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CarrierError,
  type CarrierPort,
  type CarrierRecord,
  type HandOverLookup,
  type OutboundMessage,
  type OutboundSms,
} from '../src/providers/carrier/port';
import { messagesRepo } from '../src/repositories/messages';
import {
  connect,
  inbox,
  makeUser,
  money,
  startChatApp,
  textPayload,
  type ChatClientSocket,
  type ListeningApp,
} from './chat-support';
import { testDbKind } from './helpers';

/**
 * Issue 18 §7 in one process: a hand-over whose outcome is unknown (here: the carrier accepted it and
 * its answer never came, so the call timed out) is looked up at the carrier before anything else
 * happens to the message — on the next try, and on the last one's failure (`onFailed`), which used to
 * fail and refund a message the carrier had taken. The kill -9 version is crash.test.ts.
 */

/**
 * A carrier stand-in that keeps what it accepted (as a real carrier does) and answers lookups from
 * it. `hang` texts are accepted and never answered; `refused-later` ones are accepted, never
 * answered, and then marked failed at the carrier (undelivered); the first two lookups of a
 * `lookup-late` text fail (the carrier cannot tell yet); `down` makes every lookup fail.
 */
class KeepingCarrier implements CarrierPort {
  readonly name = 'simulator';
  sent: OutboundMessage[] = [];
  lookups: HandOverLookup[] = [];
  down = false;
  private records: (CarrierRecord & { key: string })[] = [];
  attach() {}
  texts: OutboundSms[] = [];
  async sendSms(m: OutboundSms) {
    this.texts.push(m);
    const id = `SIM${randomUUID().replaceAll('-', '')}`;
    if (m.idempotencyKey) this.records.push({ id, at: new Date(), key: m.idempotencyKey });
    return { id };
  }
  async sendMessage(m: OutboundMessage) {
    this.sent.push(m);
    const id = `SIM${randomUUID().replaceAll('-', '')}`;
    this.records.push({
      id,
      at: new Date(),
      key: m.idempotencyKey,
      ...(m.text.startsWith('refused-later')
        ? { failed: { reason: 'undelivered (error 30003)', errorCode: '30003' } }
        : {}),
    });
    if (/^(hang|refused-later|lookup-late)/.test(m.text)) return new Promise<never>(() => {});
    return { id };
  }
  async lookupMessage(m: HandOverLookup) {
    this.lookups.push(m);
    const asked = this.lookups.filter((x) => x.idempotencyKey === m.idempotencyKey).length;
    if (this.down || (m.text.startsWith('lookup-late') && asked <= 2))
      throw new CarrierError('carrier unreachable', undefined, false);
    return this.records.filter((r) => r.key === m.idempotencyKey).map(({ key: _k, ...r }) => r);
  }
  /** Accepted hand-overs per request key. */
  accepted(key: string) {
    return this.records.filter((r) => r.key === key).length;
  }
}

const sockets: ChatClientSocket[] = [];
const apps: ListeningApp[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const t of apps) await t.close();
});

async function start() {
  const carrier = new KeepingCarrier();
  const t = await startChatApp({
    carrier,
    chats: { maxAttempts: 3, retryDelayMs: 20, carrierTimeoutMs: 150 },
    jobs: { pollMs: 20 },
  });
  apps.push(t);
  return { t, carrier };
}

async function sender(t: ListeningApp, number: string) {
  const a = await makeUser(t, { number, balance: 1 });
  const s = await connect(t.url, a.token);
  sockets.push(s);
  return { a, s, i: inbox(s) };
}

const keyOf = async (t: ListeningApp, smsId: string) => {
  const [row] = await t.db.query<{ id: number; carrier_id: string | null }>(
    `SELECT id, carrier_id FROM messages WHERE sms_id = $1`,
    [smsId],
  );
  return { key: `msg-${row!.id}`, carrierId: row!.carrier_id };
};

/** One app for the whole file (its carrier keeps what it accepted). */
let t: ListeningApp;
let carrier: KeepingCarrier;
beforeAll(async () => {
  ({ t, carrier } = await start());
});

describe('a hand-over whose answer never came', () => {
  it('is found at the carrier on the next try and not handed over again', async () => {
    const { a, s, i } = await sender(t, '+14155550901');
    const p = textPayload(a.number, '12125550901', 'hang: accepted, answer lost');
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId && m.status === 0)).toMatchObject({ status: 0 });
    const { key, carrierId } = await keyOf(t, p.smsId);
    expect(carrier.accepted(key)).toBe(1);
    expect(carrier.sent.filter((m) => m.idempotencyKey === key)).toHaveLength(1);
    expect(carrier.lookups.filter((m) => m.idempotencyKey === key)).toHaveLength(1);
    expect(carrierId).toMatch(/^SIM/);
    const { balance, bills } = await money(t.db, a.accountId);
    expect(balance).toBe(bills.reduce((x, b) => x + b.charge, 0));
    expect(balance).toBe(10_000 - 80);
  });

  it('is failed and refunded once when the carrier has it as failed; not handed over again', async () => {
    const { a, s, i } = await sender(t, '+14155550902');
    const p = textPayload(a.number, '12125550902', 'refused-later downstream');
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId && m.status === 2)).toMatchObject({ retcode: 300036 });
    const { key } = await keyOf(t, p.smsId);
    expect(carrier.accepted(key)).toBe(1);
    const { balance, bills } = await money(t.db, a.accountId);
    expect(bills.filter((b) => b.type === 8)).toHaveLength(1);
    expect(balance).toBe(10_000);
  });

  it('is not sent while the carrier cannot tell whether it has it', async () => {
    const { a, s } = await sender(t, '+14155550903');
    carrier.down = true;
    try {
      const p = textPayload(a.number, '12125550903', 'hang while the lookups fail');
      s.emit('sendMessage', p);
      let key = '';
      // every try after the first asked, got no answer, and sent nothing; the message stays pending, charged
      await expect
        .poll(
          async () => {
            key = (await keyOf(t, p.smsId).catch(() => ({ key: '' }))).key;
            return carrier.lookups.filter((m) => m.idempotencyKey === key).length;
          },
          { timeout: 10_000, interval: 20 },
        )
        .toBeGreaterThanOrEqual(3);
      expect(carrier.sent.filter((m) => m.idempotencyKey === key)).toHaveLength(1);
      const [row] = await t.db.query<{ status: number }>(`SELECT status FROM messages WHERE sms_id = $1`, [
        p.smsId,
      ]);
      expect(row!.status).toBe(1);
      expect((await money(t.db, a.accountId)).balance).toBe(10_000 - 80);
    } finally {
      carrier.down = false;
    }
  });

  it('is looked up again when its last try fails: the carrier has it, so it is sent, not failed and refunded', async () => {
    // try 1 times out after the carrier took it; tries 2 and 3 cannot ask (the lookup fails), so the
    // last failure goes to onFailed, which asks again before failing the message
    const { a, s, i } = await sender(t, '+14155550904');
    const p = textPayload(a.number, '12125550904', 'lookup-late after the acceptance');
    s.emit('sendMessage', p);
    expect(await i.next((m) => m.smsId === p.smsId && m.status !== 1)).toMatchObject({ status: 0 });
    const { key } = await keyOf(t, p.smsId);
    expect(carrier.accepted(key)).toBe(1);
    expect(carrier.lookups.filter((m) => m.idempotencyKey === key)).toHaveLength(3);
    const { balance, bills } = await money(t.db, a.accountId);
    expect(bills.filter((b) => b.type === 8)).toHaveLength(0);
    expect(balance).toBe(10_000 - 80);
  });
});

describe('a text from a verification number (codes.send) whose process died after handing it over', () => {
  /** A codes.send job as a dead process leaves it: claimed `attempts` times, its lease over. */
  async function orphan(payload: Record<string, unknown>, attempts: number) {
    await t.db.query(
      `INSERT INTO jobs (name, payload, run_at, max_attempts, attempts, locked_by, locked_until)
       VALUES ('codes.send', $1, now(), 3, $2, 'gone:1:dead', now() - interval '1 minute')`,
      [JSON.stringify(payload), attempts],
    );
  }
  const refunds = async (accountId: number) =>
    (await money(t.db, accountId)).bills.filter((b) => b.type === 8).length;
  const settled = () =>
    expect
      .poll(
        async () =>
          (await t.db.query(`SELECT 1 FROM jobs WHERE name = 'codes.send' AND failed_at IS NULL`)).length,
        {
          timeout: 10_000,
          interval: 20,
        },
      )
      .toBe(0);

  it('is not sent again when the carrier has it, and not refunded when its tries ran out', async () => {
    const { a } = await sender(t, '+14155550931');
    const text = (n: number) => ({
      smsId: `code-out:handover${n}`,
      accountId: a.accountId,
      from: '447700900931',
      to: '14155550932',
      text: `reply ${n}`,
      charge: 80,
      segments: 1,
      at: Date.now(),
    });
    // 1: the carrier took it before the process died (one try claimed): the next try asks, sends nothing
    const one = text(1);
    await carrier.sendSms({ from: one.from, to: one.to, text: one.text, idempotencyKey: one.smsId });
    await orphan(one, 1);
    // 2: the same, but the deaths used up its tries: onFailed asks before refunding, and does not
    const two = text(2);
    await carrier.sendSms({ from: two.from, to: two.to, text: two.text, idempotencyKey: two.smsId });
    await orphan(two, 3);
    // 3: the carrier never got it (one try claimed): sent now, once
    const three = text(3);
    await orphan(three, 1);
    // 4: never got it, tries used up: refunded, once
    const four = text(4);
    await orphan(four, 3);
    await settled();
    // hand-overs per text (the ones before the deaths included), and the refunds: only the fourth's
    const handed = (x: { text: string }) => carrier.texts.filter((m) => m.text === x.text).length;
    expect([one, two, three, four].map(handed)).toEqual([1, 1, 1, 0]);
    expect(await refunds(a.accountId)).toBe(1);
  });
});

describe(`adopting a carrier record (${testDbKind})`, () => {
  it('takes the first record no other outgoing message holds; two messages never hold one', async () => {
    const { db } = t;
    {
      const [{ id: accountId }] = (await db.query<{ id: number }>(
        `INSERT INTO accounts (brand, email) VALUES ('numa', 'adopt@example.com') RETURNING id`,
      )) as [{ id: number }];
      const insert = async (n: number, carrierId: string | null) => {
        const [row] = await db.query<{ id: number }>(
          `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, direction, type, text, status, sms_id, date, carrier, carrier_id)
           VALUES ($1, '14155550921', '1', '12125550921', 'out', 'sms', 'ok', $2, $3, $4, 'twilio', $5) RETURNING id`,
          [accountId, carrierId ? 0 : 1, `adopt-${n}`, 1_000 + n, carrierId],
        );
        return row!.id;
      };
      await insert(0, 'SM-earlier');
      const [m1, m2, m3] = [await insert(1, null), await insert(2, null), await insert(3, null)];
      // the earlier message's record is its own: the next one is taken
      expect(await messagesRepo.adoptCarrierId(db.q, m1, ['SM-earlier', 'SM-a', 'SM-b'])).toBe('SM-a');
      // none left that is not another message's: this one was not handed over
      expect(await messagesRepo.adoptCarrierId(db.q, m2, ['SM-earlier', 'SM-a'])).toBeNull();
      // adopting again what it holds already is the same answer
      expect(await messagesRepo.adoptCarrierId(db.q, m1, ['SM-earlier', 'SM-a', 'SM-b'])).toBe('SM-a');
      // two at once for one record: at most one takes it (the other gets none, or the index refuses it)
      const raced = await Promise.allSettled([
        messagesRepo.adoptCarrierId(db.q, m2, ['SM-c']),
        messagesRepo.adoptCarrierId(db.q, m3, ['SM-c']),
      ]);
      expect(raced.filter((r) => r.status === 'fulfilled' && r.value === 'SM-c')).toHaveLength(1);
      const holders = await db.query(`SELECT id FROM messages WHERE carrier_id = 'SM-c'`);
      expect(holders).toHaveLength(1);
    }
  });
});
