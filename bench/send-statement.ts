/**
 * `npm run bench:send-statement`: how much of a delivery is the database's, measured in one process
 * (no sockets). Sequential p50/p99 of:
 *   - the durable relay's one INSERT of a message row (bench/run.ts's baseline, minus its socket.io),
 *   - the sending rules' one read (sendFactsRepo.read),
 *   - the send statement (sendDurable: bill, balance, both copies, both conversation rows),
 *   - the two together, which is the least a delivery on the platform costs in the database.
 * Its ratios against the relay's INSERT are the floor under `npm run bench`'s delivery ratio.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { constants, negMinor, toMinor } from '@numa/contract';
import { raw } from '../apps/server/src/db/raw';
import { idemKey } from '../apps/server/src/lib/idem';

import { sendDurable, sendFactsRepo } from '../apps/server/src/repositories/messages';
import { makeAccount, openDb } from './support';

const N = Number(process.env.BENCH_ROUND_TRIPS ?? 400);

function pct(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  return { p50: q(0.5), p99: q(0.99) };
}

async function main() {
  const { db, cleanup } = await openDb('stmt');
  const a = await makeAccount(db, 'stmt-a@bench.test', '+12025550181', 1000);
  const b = await makeAccount(db, 'stmt-b@bench.test', '+12025550182', 0);
  const own = a.number;
  const to = b.number;
  let seq = 0;
  const relay = async () => {
    await raw(
      db.q,
      `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction,
                             type, text, media, status, sms_id, date, charge, segments)
       VALUES ($1, $2, '1', $3, '1', 'out', 'sms', $4, '', 0, $5, $6, 80, 1)`,
      [a.id, own, to, 'relay — how are you today?', `relay-${seq}`, Date.now() * 1000 + seq++],
    );
  };
  const facts = () =>
    sendFactsRepo.read(db.q, {
      accountId: a.id,
      from: own,
      to,
      currency: 'USD',
      country: 'US',
      smsId: `s-${seq}`,
    });
  const statement = async () => {
    const smsId = `stmt-${seq++}`;
    const o = await sendDurable(db.q, {
      bill: {
        accountId: a.id,
        type: constants.billTypes.sms,
        charge: negMinor(toMinor(0.008)),
        options: { direction: 'out', from: own, to, type: 'sms', count: 1, countryCode: '1' },
        idempotencyKey: idemKey('msg', a.id, smsId),
      },
      message: {
        accountId: a.id,
        ownFullNumber: own,
        ownTelCode: '1',
        otherFullNumber: to,
        otherTelCode: '1',
        direction: 'out',
        type: 'sms',
        text: 'statement — how are you today?',
        media: '',
        smsId,
        charge: toMinor(0.008),
        segments: 1,
        carrier: 'simulator',
      },
      rateEventKey: null,
      job: {
        name: 'carrier.send',
        runAt: new Date(),
        maxAttempts: 5,
        worker: 'bench',
        until: new Date(Date.now() + 30_000),
      },
      platformCarrier: 'platform',
    });
    if (!o.written || !o.received) throw new Error('the send statement did not deliver');
  };
  const both = async () => {
    await facts();
    await statement();
  };
  const cases: [string, () => Promise<unknown>][] = [
    ['relay INSERT (baseline)', relay],
    ['rules read', facts],
    ['send statement', statement],
    ['rules read + send statement', both],
  ];
  const results: Record<string, { p50: number; p99: number }> = {};
  for (const [, fn] of cases) {
    for (let i = 0; i < 50; i++) await fn();
  }
  // interleaved rounds so that a slower moment of the machine falls on every case alike
  const samples: Record<string, number[]> = Object.fromEntries(cases.map(([n]) => [n, []]));
  for (let i = 0; i < N; i++) {
    for (const [name, fn] of cases) {
      const t0 = performance.now();
      await fn();
      samples[name]!.push(performance.now() - t0);
    }
  }
  for (const [name] of cases) results[name] = pct(samples[name]!);
  const base = results['relay INSERT (baseline)']!;
  console.log(
    `Send statement bench — ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, Node ${process.version}, ${os.cpus().length} CPUs, ${N} rounds\n`,
  );
  console.log(
    `${''.padEnd(30)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'p50 ×'.padStart(7)} ${'p99 ×'.padStart(7)}`,
  );
  for (const [name] of cases) {
    const r = results[name]!;
    console.log(
      `${name.padEnd(30)} ${r.p50.toFixed(3).padStart(8)} ${r.p99.toFixed(3).padStart(8)} ${(r.p50 / base.p50).toFixed(2).padStart(6)}× ${(r.p99 / base.p99).toFixed(2).padStart(6)}×`,
    );
  }
  await cleanup();
}

await main();
