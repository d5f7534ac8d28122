import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import {
  CarrierError,
  type CarrierPort,
  type CarrierSink,
  type HandOverLookup,
  type OutboundMessage,
} from '../src/providers/carrier/port';
import { SimulatedCarrier } from '../src/providers/carrier/simulator';
import { SimulatedMail } from '../src/providers/mail/simulator';
import { openTestDb, signIn, testEnv } from './helpers';
import { credit, connect, inbox, money, textPayload, until, type ChatClientSocket } from './chat-support';
import { assignNumber } from '../src/services/rentals/numbers/assign';

/**
 * A server dies in the middle of a send and another takes over on the same database: nothing is lost,
 * nothing is charged or delivered twice. (The processes are two app instances on one database; the
 * scale-out suite runs real separate processes on PostgreSQL.)
 */
type Db = Awaited<ReturnType<typeof openTestDb>>;
let db: Db;
const apps: FastifyInstance[] = [];
const sockets: ChatClientSocket[] = [];

/** The carrier's side of a server that is about to die: the send never comes back. */
class DyingCarrier implements CarrierPort {
  readonly name = 'simulator';
  calls: OutboundMessage[] = [];
  constructor(private readonly inner: SimulatedCarrier | null) {}
  attach(sink: CarrierSink) {
    this.inner?.attach(sink);
  }
  async sendSms() {
    return { id: 'unused' };
  }
  async sendMessage(m: OutboundMessage): Promise<{ id: string }> {
    this.calls.push(m);
    // with an inner simulator the carrier accepted (and delivered) before the crash
    if (this.inner) await this.inner.sendMessage(m);
    return new Promise(() => {});
  }
  async lookupMessage(m: HandOverLookup) {
    return this.inner ? this.inner.lookupMessage(m) : [];
  }
}

/** Counts the sends of a healthy carrier. */
class CountingCarrier extends SimulatedCarrier {
  calls: OutboundMessage[] = [];
  override async sendMessage(m: OutboundMessage) {
    this.calls.push(m);
    return super.sendMessage(m);
  }
}

async function start(carrier: CarrierPort) {
  const app = await buildApp({
    env: testEnv(),
    db,
    mail: new SimulatedMail(),
    carrier,
    chats: { retryDelayMs: 50, carrierTimeoutMs: 60_000 },
    jobs: { leaseMs: 400, heartbeatMs: 100, pollMs: 50, stopGraceMs: 200 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

async function user(app: FastifyInstance, email: string, number: string, balance = 0) {
  const c = await signIn(app, { email });
  const [{ id }] = (await db.query<{ id: number }>(`SELECT id FROM accounts WHERE email = $1`, [email])) as [
    { id: number },
  ];
  await db.tx(async (q) => {
    await assignNumber(q, { accountId: id, number });
    if (balance) await credit(q, id, balance);
  });
  return { c, id, token: c.token!, number: number.slice(1) };
}

const open = async (url: string, token: string) => {
  const s = await connect(url, token);
  sockets.push(s);
  return s;
};

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const app of apps) await app.close().catch(() => {});
  await db?.drop();
});

describe('a restart in the middle of a send', () => {
  it('before the carrier answered: the new server resumes the send once; one charge, one delivery', async () => {
    const dying = new DyingCarrier(null);
    const first = await start(dying);
    const a = await user(first.app, 'restart-a@example.com', '+14155550501', 1);
    // a number off the platform: the carrier carries it (a number on the platform is delivered at commit)
    const p = textPayload(a.number, '12125550502', 'survives a crash');
    const sa = await open(first.url, a.token);
    sa.emit('sendMessage', p);
    await until(async () => dying.calls.length === 1);
    const [pending] = await db.query<{ status: number }>(`SELECT status FROM messages WHERE sms_id = $1`, [
      p.smsId,
    ]);
    expect(pending?.status).toBe(1);
    expect((await money(db, a.id)).balance).toBe(10_000 - 80);

    // the server goes away with the send in flight
    await first.app.close();

    // the new server takes the job over as soon as its lease ran out (here: at once, at its start)
    const healthy = new CountingCarrier(db);
    const second = await start(healthy);
    const sa2 = await open(second.url, a.token);
    const ia = inbox(sa2);
    // the client resends what it never saw confirmed, with the same smsId
    sa2.emit('sendMessage', p);
    expect(await ia.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0, text: 'survives a crash' });
    // the carrier got it once, under the same idempotency key as the dead server's try
    expect(healthy.calls).toHaveLength(1);
    expect(healthy.calls[0]!.idempotencyKey).toBe(dying.calls[0]!.idempotencyKey);
    const { balance, bills } = await money(db, a.id);
    expect(balance).toBe(10_000 - 80);
    expect(bills.filter((x) => x.type === 2)).toHaveLength(1);
    const copies = await db.query(`SELECT status FROM messages WHERE account_id = $1`, [a.id]);
    expect(copies).toEqual([{ status: 0 }]);
    // the job is done (its row goes) after the second attempt, the one of the new server: the runner
    // removes it once the try has returned, which is after the confirmation went out, so it is polled
    await until(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM jobs j JOIN messages m ON j.dedupe_key = 'carrier:' || m.id WHERE m.sms_id = $1`,
            [p.smsId],
          )
        ).length === 0,
    );
    await second.app.close();
  });

  it('after the carrier accepted: the resumed send finds it at the carrier and is not handed over again', async () => {
    const accepted = new CountingCarrier(db);
    const dying = new DyingCarrier(accepted);
    const first = await start(dying);
    const a = await user(first.app, 'restart-c@example.com', '+14155550511', 1);
    const sa = await open(first.url, a.token);
    const p = textPayload(a.number, '12125550512', 'accepted, then the crash');
    sa.emit('sendMessage', p);
    await until(async () => accepted.calls.length === 1);
    await first.app.close();

    // two servers come up at once: only one of them takes the job over
    const c2 = new CountingCarrier(db);
    const c3 = new CountingCarrier(db);
    const second = await start(c2);
    const third = await start(c3);
    const sa2 = await open(second.url, a.token);
    const ia = inbox(sa2);
    sa2.emit('sendMessage', p);
    expect(await ia.next((m) => m.smsId === p.smsId)).toMatchObject({ status: 0 });
    // the new server asked the carrier first: it has the message, so nobody handed it over again
    expect([...c2.calls, ...c3.calls]).toEqual([]);
    const atCarrier = await db.query<{ sid: string }>(
      `SELECT sid FROM carrier_simulator_messages WHERE request_key = $1`,
      [accepted.calls[0]!.idempotencyKey],
    );
    expect(atCarrier).toHaveLength(1);
    const [stored] = await db.query<{ status: number; carrier_id: string }>(
      `SELECT status, carrier_id FROM messages WHERE sms_id = $1`,
      [p.smsId],
    );
    expect(stored).toEqual({ status: 0, carrier_id: atCarrier[0]!.sid });
    expect((await money(db, a.id)).bills.filter((x) => x.type === 2)).toHaveLength(1);
    await second.app.close();
    await third.app.close();
  });
});

describe('transient carrier errors', () => {
  it('are retried, then the message fails with a refund when they persist', async () => {
    let failures = 1;
    class Flaky extends SimulatedCarrier {
      calls = 0;
      override async sendMessage(m: OutboundMessage) {
        this.calls++;
        if (m.text.includes('always') || failures-- > 0) throw new CarrierError('carrier busy', '503', false);
        return super.sendMessage(m);
      }
    }
    const flaky = new Flaky(db);
    const { app, url } = await start(flaky);
    const a = await user(app, 'flaky-a@example.com', '+14155550521', 1);
    const s = await open(url, a.token);
    const i = inbox(s);
    const once = textPayload(a.number, '12125550521', 'second time lucky');
    s.emit('sendMessage', once);
    expect(await i.next((m) => m.smsId === once.smsId)).toMatchObject({ status: 0 });
    expect(flaky.calls).toBe(2);

    const never = textPayload(a.number, '12125550521', 'always busy');
    s.emit('sendMessage', never);
    expect(await i.next((m) => m.smsId === never.smsId)).toMatchObject({ status: 2, retcode: 300036 });
    expect(flaky.calls).toBe(2 + 3);
    expect((await money(db, a.id)).balance).toBe(10_000 - 80);
  });
});
