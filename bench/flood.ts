/**
 * `npm run bench:flood` (issue 9, hole 1): one account with no credit floods 5,000 `sendMessage`
 * events while other accounts send texts and read their chat list. Reported for each: p50 / p99 when
 * idle and during the flood, measured in the same run on the same machine, and their ratio (goal:
 * within 2× of idle p50). Run twice: with the default limits of env.ts, and with limits raised out of
 * reach ("limits off"), which is what the server did before them.
 *
 * The flooder runs in its own worker thread, so its own CPU is not charged to the server's event
 * loop; it sends 500 events a tick as fast as the socket takes them and reconnects whenever dropped.
 * Samples: senders take turns (each stays within its own socket's budget); B reads a chat list of 200
 * conversations. PGlite by default, PostgreSQL with BENCH_DATABASE_URL.
 * Results: bench/results/flood-latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { io as connectIo, type Socket } from 'socket.io-client';
import { socketPath, type ReceiveMessage } from '@numa/contract';
import { buildApp } from '../apps/server/src/app';
import { loadEnv } from '../apps/server/src/env';
import { SimulatedMail } from '../apps/server/src/providers/mail/simulator';
import { makeAccount, openDb } from './support';

const FLOOD = Number(process.env.BENCH_FLOOD_EVENTS ?? 5000);
const SAMPLES = Number(process.env.BENCH_FLOOD_SAMPLES ?? 120);
const SENDERS = 12;
const CHATS = 200;

interface Stats {
  n: number;
  p50: number;
  p99: number;
}
function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  const r = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, p50: r(q(0.5)), p99: r(q(0.99)) };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connect(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connectIo(url, {
      path: socketPath,
      query: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

function next(s: Socket, match: (m: ReceiveMessage) => boolean): Promise<ReceiveMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message within 60 s')), 60_000);
    const on = (m: ReceiveMessage) => {
      if (!match(m)) return;
      clearTimeout(timer);
      s.off('receiveMessage', on);
      resolve(m);
    };
    s.on('receiveMessage', on);
  });
}

/** The flooder: its own thread, its own socket.io client. Posts {sent, disconnects, refusedHandshakes, failures} when told to stop. */
const floodWorker = `
const { parentPort, workerData } = require('node:worker_threads');
const { io } = require(workerData.client);
const { url, token, path, from, to, total } = workerData;
let sent = 0, disconnects = 0, refusedHandshakes = 0, failures = 0, stop = false, socket = null, connecting = false;
parentPort.on('message', (m) => { if (m === 'stop') stop = true; });
const open = () => new Promise((resolve) => {
  const s = io(url, { path, query: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  s.once('connect', () => resolve(s));
  s.once('connect_error', () => { refusedHandshakes++; s.close(); resolve(null); });
  s.on('disconnect', () => { disconnects++; });
  s.on('receiveMessage', (m) => { if (m.status === 2) failures++; });
});
(async () => {
  while (!stop) {
    if (!socket || !socket.connected) {
      socket = await open();
      await new Promise((r) => setTimeout(r, socket ? 0 : 50));
      continue;
    }
    if (sent < total) {
      for (let i = 0; i < 500 && sent < total; i++) {
        socket.emit('sendMessage', { fromNumber: from, toNumber: to, text: 'flood ' + sent, msgType: 'sms', smsId: 'flood-' + sent++, platform: 'numa', languagecode: 'en' });
      }
    }
    await new Promise((r) => setImmediate(r));
  }
  socket?.close();
  parentPort.postMessage({ sent, disconnects, refusedHandshakes, failures });
})();
`;

async function scenario(label: string, limitsOff: boolean) {
  const { db, dataDir, cleanup } = await openDb('flood');
  const huge = '1000000';
  const env = loadEnv({
    NODE_ENV: 'production',
    // production with the simulated providers: a demo's opt-in (production is fail-closed, issue 18)
    DEMO_MODE: '1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    VALIDATE_RESPONSES: 'false',
    ...(limitsOff
      ? {
          SOCKET_EVENTS_PER_SECOND: huge,
          SOCKET_EVENTS_BURST: huge,
          ACCOUNT_EVENTS_PER_SECOND: huge,
          ACCOUNT_EVENTS_BURST: huge,
          ACCOUNT_CALLS_BURST: huge,
        }
      : // B reads its chat list far more often than a person would: only its HTTP budget is raised
        { ACCOUNT_CALLS_BURST: huge }),
  });
  const app = await buildApp({ env, db, mail: new SimulatedMail() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const senders: Awaited<ReturnType<typeof makeAccount>>[] = [];
  for (let i = 0; i < SENDERS; i++)
    senders.push(await makeAccount(db, `sender${i}@example.com`, `+1415555${String(1000 + i)}`, 1000));
  const b = await makeAccount(db, 'reader@example.com', '+14155550902', 0);
  const f = await makeAccount(db, 'flooder@example.com', '+14155550903', 0);
  for (let i = 0; i < CHATS; i++) {
    await app.deps.chats.sink.inbound({
      carrierId: `seed${i}`,
      from: `1212555${String(1000 + i)}`,
      to: b.number,
      text: `hello ${i}`,
      media: [],
    });
  }

  const chats = app.deps.chats;
  const send = chats.send.bind(chats);
  let reached = 0;
  chats.send = (who, payload) => {
    if (who.accountId === f.id) reached++;
    return send(who, payload);
  };

  const sockets = await Promise.all(senders.map((s) => connect(url, s.token)));
  const sb = await connect(url, b.token);
  const chatListUrl = `${url}/web/getChatList?months=4&languagecode=en`;
  let seq = 0;
  const sample = async () => {
    const k = seq % SENDERS;
    const text = `${label} ${seq++}`;
    const smsId = `${label}-${seq}`;
    const received = next(sb, (m) => m.text === text && m.direction === 'in');
    const confirmed = next(sockets[k]!, (m) => m.smsId === smsId);
    const t0 = performance.now();
    sockets[k]!.emit('sendMessage', {
      fromNumber: senders[k]!.number,
      toNumber: b.number,
      text,
      msgType: 'sms',
      smsId,
      platform: 'numa',
      languagecode: 'en',
    });
    await received;
    const delivery = performance.now() - t0;
    const c = await confirmed;
    if (c.status !== 0) throw new Error(`send failed: ${c.retmsg}`);
    const t1 = performance.now();
    const res = (await (await fetch(chatListUrl, { headers: { 'auth-token': b.token } })).json()) as {
      retcode: number;
      data: { chatList: unknown[] };
    };
    const chatList = performance.now() - t1;
    if (res.retcode !== 0) throw new Error(`getChatList: ${res.retcode}`);
    return { delivery, chatList };
  };
  const measure = async (n: number) => {
    const out = { delivery: [] as number[], chatList: [] as number[] };
    for (let i = 0; i < n; i++) {
      const s = await sample();
      out.delivery.push(s.delivery);
      out.chatList.push(s.chatList);
      // each sender sends once per round of SENDERS samples: keep each under 5 a second
      if (i % SENDERS === SENDERS - 1) await sleep(100);
    }
    return out;
  };

  await measure(30); // warm-up
  await sleep(2500);
  const idle = await measure(SAMPLES);
  await sleep(2500);

  const worker = new Worker(floodWorker, {
    eval: true,
    workerData: {
      client: createRequire(import.meta.url).resolve('socket.io-client'),
      url,
      token: f.token,
      path: socketPath,
      from: f.number,
      to: b.number,
      total: FLOOD,
    },
  });
  const floodStarted = performance.now();
  const busy = await measure(SAMPLES);
  const measuredMs = performance.now() - floodStarted;
  const done = new Promise<{
    sent: number;
    disconnects: number;
    refusedHandshakes: number;
    failures: number;
  }>((resolve) => worker.once('message', resolve));
  worker.postMessage('stop');
  const flood = await done;
  await worker.terminate();
  // a server without limits is still working off the flood: wait until it is done, and time it
  const drainStarted = performance.now();
  while (reached < flood.sent * 0.9 && limitsOff && performance.now() - drainStarted < 120_000)
    await sleep(100);

  for (const s of [...sockets, sb]) s.close();
  await app.close();
  await cleanup();

  const result = {
    limits: limitsOff ? 'off' : 'defaults',
    delivery: { idle: stats(idle.delivery), flood: stats(busy.delivery) },
    getChatList: { chats: CHATS, idle: stats(idle.chatList), flood: stats(busy.chatList) },
    ratioP50: {
      delivery: Math.round((stats(busy.delivery).p50 / stats(idle.delivery).p50) * 100) / 100,
      getChatList: Math.round((stats(busy.chatList).p50 / stats(idle.chatList).p50) * 100) / 100,
    },
    flood: { ...flood, reachedChatService: reached, measuredDuringMs: Math.round(measuredMs) },
  };
  return result;
}

async function main() {
  const started = performance.now();
  console.log(
    `Flood bench — ${FLOOD} sendMessage events from one account with no credit; ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, Node ${process.version}, ${os.cpus().length} CPUs\n`,
  );
  const withLimits = await scenario('limits', false);
  const without = await scenario('nolimits', true);
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    floodEvents: FLOOD,
    samples: SAMPLES,
    runs: [withLimits, without],
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };

  for (const r of results.runs) {
    console.log(`limits ${r.limits}:`);
    console.log(
      `  delivery     p50/p99 idle ${r.delivery.idle.p50} / ${r.delivery.idle.p99} ms, flood ${r.delivery.flood.p50} / ${r.delivery.flood.p99} ms  → ${r.ratioP50.delivery}× p50`,
    );
    console.log(
      `  getChatList  p50/p99 idle ${r.getChatList.idle.p50} / ${r.getChatList.idle.p99} ms, flood ${r.getChatList.flood.p50} / ${r.getChatList.flood.p99} ms  → ${r.ratioP50.getChatList}× p50`,
    );
    console.log(
      `  flood: ${r.flood.sent} of ${FLOOD} written to the socket before it was dropped, ${r.flood.reachedChatService} reached the chat service, ${r.flood.failures} failures heard, ${r.flood.disconnects} disconnects, ${r.flood.refusedHandshakes} handshakes refused`,
    );
  }
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'flood-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${results.seconds} s; written to bench/results/flood-latest.json`);
}

await main();
