/**
 * `npm run bench`: the chat paths against a baseline measured in the same run, on the same machine.
 *
 * (a) Delivery round trip: account A sends a text through the real server (socket.io, the session
 *     check from memory, the rules' one read, then one statement committing the bill, A's copy, B's
 *     copy and both conversation rows) until B's socket receives it — against two baselines: a bare
 *     socket.io server that relays the same payload from A's socket to B's, and the durable relay, the
 *     same server committing one INSERT of the message row into the same database before relaying.
 * (b) getChatList and getDialogList of an account with 10,000 messages (501 chats; one chat of
 *     5,000 messages, read a page of 500) — against a bare Fastify route answering the same JSON.
 *
 * (c) The same two reads under load: 20 connections requesting back to back (in process), requests
 *     per second against the bare route in the same run.
 * (d) getChatList of an account with 5,001 chats, sequential p50/p99 (issue 13: under 60 ms on PGlite).
 *     The server keeps a built list under a validator the database checks (migration 055), so a list
 *     read again is not built again; "rebuilt" figures write a conversation row before each request
 *     (as a new message does) so that every request builds the whole list in the database.
 *
 * (e) Message search at 100,000 messages (issue 22 §1; bench/search.ts, alone: `npm run bench:search`):
 *     GET /web/searchMessages p50/p99 per query against a bare ILIKE scan of the same rows.
 *
 * (a), (b), (d): sequential requests (one at a time): the figures are latencies, p50 and p99, and their ratios.
 * The database is the embedded PGlite that `npm start` uses, or PostgreSQL with BENCH_DATABASE_URL.
 * Results: bench/results/latest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { Server } from 'socket.io';
import { io as connectIo, type Socket } from 'socket.io-client';
import { constants, socketPath, type ReceiveMessage } from '@numa/contract';
import { buildApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db';
import { loadEnv } from '../apps/server/src/env';
import { SimulatedMail } from '../apps/server/src/providers/mail/simulator';
import { raw } from '../apps/server/src/db/raw';
import { printSearchBench, searchBench } from './search';
import { floodLimitsOff, latencyStats, makeAccount, openDb, type LatencyStats } from './support';

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 400);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 30;
const MESSAGES = 10_000;
const CONNECTIONS = 20;
const LOAD_MS = Number(process.env.BENCH_LOAD_MS ?? 3_000);
const WIDE_CHATS = 5_001;

type Stats = LatencyStats;
const stats = latencyStats;
const ratio = (a: Stats, b: Stats) => ({
  p50: Math.round((a.p50 / b.p50) * 100) / 100,
  p99: Math.round((a.p99 / b.p99) * 100) / 100,
});

type Client = Socket;
function connect(url: string, query: Record<string, string>): Promise<Client> {
  return new Promise((resolve, reject) => {
    const s = connectIo(url, {
      path: socketPath,
      query,
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    s.once('connect', () => resolve(s));
    s.once('connect_error', reject);
  });
}

/** Waits for the next receiveMessage of a socket that satisfies `match`. */
function next(s: Client, match: (m: ReceiveMessage) => boolean): Promise<ReceiveMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message within 10 s')), 10_000);
    const on = (m: ReceiveMessage) => {
      if (m.status === 2) console.error('failed:', m.retcode, m.retmsg);
      if (!match(m)) return;
      clearTimeout(timer);
      s.off('receiveMessage', on);
      resolve(m);
    };
    s.on('receiveMessage', on);
  });
}

/** A sends `count` texts to B one after the other; each sample is send → B received. */
async function roundTrips(
  a: Client,
  b: Client,
  from: string,
  to: string,
  count: number,
  tag: string,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${tag} ${i} — how are you today?`;
    const smsId = `${tag}-${i}-${Math.random().toString(36).slice(2, 8)}`;
    const received = next(b, (m) => m.text === text && m.direction === 'in');
    const confirmed = next(a, (m) => m.smsId === smsId);
    const t0 = performance.now();
    a.emit('sendMessage', {
      fromNumber: from,
      toNumber: to,
      text,
      msgType: 'sms',
      smsId,
      platform: 'numa',
      languagecode: 'en',
    });
    await received;
    samples.push(performance.now() - t0);
    const c = await confirmed;
    if (c.status !== 0) throw new Error(`send failed: ${c.retmsg}`);
  }
  return samples;
}

/** Sequential GETs of one URL; each sample is request → full body read (`before` runs first, untimed). */
async function requests(
  url: string,
  headers: Record<string, string>,
  count: number,
  before?: () => Promise<unknown>,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    await before?.();
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { retcode: number };
    samples.push(performance.now() - t0);
    if (body.retcode !== 0) throw new Error(`${url}: retcode ${body.retcode}`);
  }
  return samples;
}

/** CONNECTIONS clients requesting one URL back to back for `ms`: requests per second (errors abort). */
async function load(url: string, headers: Record<string, string>, connections: number, ms: number) {
  const end = performance.now() + ms;
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const res = await fetch(url, { headers });
        const body = (await res.json()) as { retcode: number };
        if (body.retcode !== 0) throw new Error(`${url}: retcode ${body.retcode}`);
        done++;
      }
    }),
  );
  return { requests: done, rps: Math.round((done / ((performance.now() - t0) / 1000)) * 10) / 10 };
}
/**
 * CPU milliseconds this process spent per round trip (server and both clients: they share the
 * process). Unlike the latencies, it hardly moves when other work loads the machine.
 */
const cpuPer = (u: NodeJS.CpuUsage, count: number) =>
  Math.round(((u.user + u.system) / 1000 / count) * 1000) / 1000;
const rpsRatio = (a: { rps: number }, b: { rps: number }) => Math.round((a.rps / b.rps) * 100) / 100;

/** `count` conversations of one message each for one account, all this month. */
async function seedWide(db: Database, accountId: number, own: string, count: number) {
  const now = Date.now();
  await raw(
    db.q,
    `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction, type,
                           text, media, status, sms_id, date, charge, segments)
     SELECT $1, $2, '1', '1646' || lpad(g::text, 7, '0'), '1', CASE WHEN g % 2 = 0 THEN 'in' ELSE 'out' END, 'sms',
            'Wide benchmark message ' || g || ': a sentence of the length people usually text.', '', 0, 'wide-' || g,
            $3::bigint - g * 100, 0, 1
       FROM generate_series(1, ${count}) AS g`,
    [accountId, own, now - 1000],
  );
  await raw(
    db.q,
    `INSERT INTO chats (account_id, own_full_number, other_full_number, max_date, last_date, last_message_id)
     SELECT account_id, own_full_number, other_full_number, date, date, id FROM messages WHERE account_id = $1`,
    [accountId],
  );
  await raw(db.q, 'ANALYZE messages, chats');
}

/** 10,000 messages for one account: one chat of 5,000 and 500 chats of 10, all this month. */
async function seedMessages(db: Database, accountId: number, own: string, bigOther: string) {
  const now = Date.now();
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const step = Math.max(1, Math.min(1000, Math.floor((now - monthStart - 2000) / (MESSAGES + 1))));
  await raw(
    db.q,
    `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction, type,
                           text, media, status, sms_id, date, charge, segments)
     SELECT $1, $2, '1', CASE WHEN g <= 5000 THEN $3 ELSE '1212' || lpad(((g - 5001) / 10)::text, 7, '0') END, '1',
            CASE WHEN g % 2 = 0 THEN 'in' ELSE 'out' END, 'sms',
            'Benchmark message ' || g || ': a sentence of the length people usually text.', '', 0, 'bench-' || g,
            $4::bigint - g * $5::bigint, CASE WHEN g % 2 = 0 THEN 0 ELSE 80 END, 1
       FROM generate_series(1, ${MESSAGES}) AS g`,
    [accountId, own, bigOther, now - 1000, step],
  );
  await raw(
    db.q,
    `INSERT INTO chats (account_id, own_full_number, other_full_number, max_date, last_date, last_message_id)
     SELECT DISTINCT ON (own_full_number, other_full_number) account_id, own_full_number, other_full_number, date, date, id
       FROM messages WHERE account_id = $1 ORDER BY own_full_number, other_full_number, date DESC`,
    [accountId],
  );
}

async function main() {
  const started = performance.now();
  const { db, dataDir, cleanup } = await openDb('run');
  const env = loadEnv({
    NODE_ENV: 'production',
    // production with the simulated providers: a demo's opt-in (production is fail-closed, issue 18)
    DEMO_MODE: '1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    VALIDATE_RESPONSES: 'false',
    ...floodLimitsOff,
  });
  const app = await buildApp({ env, db, mail: new SimulatedMail() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const serverUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  console.log(
    `Numa benchmarks — ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, Node ${process.version}, ${os.cpus().length} CPUs\n`,
  );

  // ---- (a) delivery round trip ----
  const a = await makeAccount(db, 'bench-a@example.com', '+14155550901', 1000);
  const b = await makeAccount(db, 'bench-b@example.com', '+14155550902', 0);
  const sa = await connect(serverUrl, { token: a.token });
  const sb = await connect(serverUrl, { token: b.token });
  await roundTrips(sa, sb, a.number, b.number, WARMUP, 'warm');
  let cpu0 = process.cpuUsage();
  const real = stats(await roundTrips(sa, sb, a.number, b.number, ROUND_TRIPS, 'real'));
  const realCpu = cpuPer(process.cpuUsage(cpu0), ROUND_TRIPS);
  sa.close();
  sb.close();

  const bareHttp = createServer();
  const bare = new Server(bareHttp, { path: socketPath, transports: ['websocket'] });
  bare.on('connection', (s) => {
    void s.join(String(s.handshake.query.room));
    s.on('sendMessage', (p: Record<string, unknown>) => {
      bare.to('b').emit('receiveMessage', { ...p, direction: 'in', status: 0 });
      s.emit('receiveMessage', { ...p, direction: 'out', status: 0 });
    });
  });
  await new Promise<void>((r) => bareHttp.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bareHttp.address() as AddressInfo).port}`;
  const ba = await connect(bareUrl, { room: 'a' });
  const bb = await connect(bareUrl, { room: 'b' });
  await roundTrips(ba, bb, a.number, b.number, WARMUP, 'warm');
  const echo = stats(await roundTrips(ba, bb, a.number, b.number, ROUND_TRIPS, 'bare'));
  ba.close();
  bb.close();
  await new Promise<void>((r) => bare.close(() => r()));

  // the durable relay: the same bare socket.io server, but each message is first committed as one
  // INSERT of its row into the messages table of the same database (the least a durable chat does)
  const durableHttp = createServer();
  const durable = new Server(durableHttp, { path: socketPath, transports: ['websocket'] });
  durable.on('connection', (s) => {
    void s.join(String(s.handshake.query.room));
    s.on('sendMessage', (p: Record<string, unknown>) => {
      raw(
        db.q,
        `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction,
                               type, text, media, status, sms_id, date, charge, segments)
         VALUES ($1, $2, '1', $3, '1', 'out', 'sms', $4, '', 0, $5, $6, 80, 1)`,
        [
          a.id,
          String(p.fromNumber),
          String(p.toNumber),
          String(p.text),
          `durable-${String(p.smsId)}`,
          Date.now() * 1000 + seq++,
        ],
      ).then(
        () => {
          durable.to('b').emit('receiveMessage', { ...p, direction: 'in', status: 0 });
          s.emit('receiveMessage', { ...p, direction: 'out', status: 0 });
        },
        (err: unknown) => console.error('durable relay insert failed', err),
      );
    });
  });
  let seq = 0;
  await new Promise<void>((r) => durableHttp.listen(0, '127.0.0.1', r));
  const durableUrl = `http://127.0.0.1:${(durableHttp.address() as AddressInfo).port}`;
  const da = await connect(durableUrl, { room: 'a' });
  const dbb = await connect(durableUrl, { room: 'b' });
  await roundTrips(da, dbb, a.number, b.number, WARMUP, 'warm');
  cpu0 = process.cpuUsage();
  const committed = stats(await roundTrips(da, dbb, a.number, b.number, ROUND_TRIPS, 'durable'));
  const committedCpu = cpuPer(process.cpuUsage(cpu0), ROUND_TRIPS);
  da.close();
  dbb.close();
  await new Promise<void>((r) => durable.close(() => r()));

  // ---- (b) chat list and dialog page on 10,000 messages ----
  const reader = await makeAccount(db, 'bench-reader@example.com', '+14155550903', 0);
  const bigOther = '12125559999';
  await seedMessages(db, reader.id, reader.number, bigOther);
  const headers = { 'auth-token': reader.token, host: 'localhost' };
  const chatListPath = `/web/getChatList?months=${constants.chatListMonths}&languagecode=en&webVersion=bench`;
  const dialogPath = `/web/getDialogList?ownFullNumber=${reader.number}&otherFullNumber=${bigOther}&pageSize=${constants.messagePageSize}&languagecode=en`;
  const chatListBody = await (await fetch(serverUrl + chatListPath, { headers })).json();
  const dialogBody = await (await fetch(serverUrl + dialogPath, { headers })).json();
  const chats = (chatListBody as { data: { chatList: unknown[] } }).data.chatList.length;
  const page = (dialogBody as { data: { dialogList: unknown[] } }).data.dialogList.length;

  const plain = Fastify({ logger: false });
  plain.get('/web/getChatList', async () => chatListBody);
  plain.get('/web/getDialogList', async () => dialogBody);
  await plain.listen({ port: 0, host: '127.0.0.1' });
  const plainUrl = `http://127.0.0.1:${(plain.server.address() as AddressInfo).port}`;

  const measure = async (url: string) => {
    await requests(url, headers, WARMUP);
    return stats(await requests(url, headers, REQUESTS));
  };
  const chatList = {
    server: await measure(serverUrl + chatListPath),
    bare: await measure(plainUrl + chatListPath),
  };
  const dialog = {
    server: await measure(serverUrl + dialogPath),
    bare: await measure(plainUrl + dialogPath),
  };

  // ---- (c) the same reads under concurrency: requests per second with CONNECTIONS at once ----
  const throughput = async (url: string) => {
    await load(url, headers, CONNECTIONS, 500);
    return load(url, headers, CONNECTIONS, LOAD_MS);
  };
  const loaded = {
    chatList: {
      server: await throughput(serverUrl + chatListPath),
      bare: await throughput(plainUrl + chatListPath),
    },
    dialog: {
      server: await throughput(serverUrl + dialogPath),
      bare: await throughput(plainUrl + dialogPath),
    },
  };

  // ---- (d) getChatList of an account with 5,001 chats (one message each) ----
  const wide = await makeAccount(db, 'bench-wide@example.com', '+14155550904', 0);
  await seedWide(db, wide.id, wide.number, WIDE_CHATS);
  const wideHeaders = { 'auth-token': wide.token, host: 'localhost' };
  const wideBody = (await (await fetch(serverUrl + chatListPath, { headers: wideHeaders })).json()) as {
    data: { chatList: unknown[] };
  };
  await requests(serverUrl + chatListPath, wideHeaders, 10);
  const wideList = stats(await requests(serverUrl + chatListPath, wideHeaders, Math.min(REQUESTS, 100)));
  // cold: a conversation row is written before each request (as a new message would), so the server's
  // kept list is out of date and the database builds the whole list again
  const touch = (accountId: number) => () =>
    raw(
      db.q,
      `UPDATE chats SET max_date = max_date WHERE account_id = $1 AND other_full_number = (
         SELECT other_full_number FROM chats WHERE account_id = $1 ORDER BY other_full_number LIMIT 1)`,
      [accountId],
    );
  const wideCold = stats(
    await requests(serverUrl + chatListPath, wideHeaders, Math.min(REQUESTS, 100), touch(wide.id)),
  );
  const chatListCold = stats(await requests(serverUrl + chatListPath, headers, REQUESTS, touch(reader.id)));

  // ---- (e) message search at 100,000 messages (bench/search.ts) ----
  const search = await searchBench(db, serverUrl);

  await plain.close();
  await app.close();
  await cleanup();

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
    roundTrip: {
      samples: ROUND_TRIPS,
      server: real,
      bareSocketIo: echo,
      durableRelay: committed,
      ratio: ratio(real, echo),
      ratioDurable: ratio(real, committed),
      cpuMsPerRoundTrip: {
        server: realCpu,
        durableRelay: committedCpu,
        ratio: Math.round((realCpu / committedCpu) * 100) / 100,
      },
      loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
    },
    getChatList: {
      messages: MESSAGES,
      chats,
      server: chatList.server,
      bareFastify: chatList.bare,
      ratio: ratio(chatList.server, chatList.bare),
    },
    getDialogList: {
      messages: MESSAGES,
      page,
      server: dialog.server,
      bareFastify: dialog.bare,
      ratio: ratio(dialog.server, dialog.bare),
    },
    underLoad: {
      connections: CONNECTIONS,
      ms: LOAD_MS,
      getChatList: {
        server: loaded.chatList.server,
        bareFastify: loaded.chatList.bare,
        ratio: rpsRatio(loaded.chatList.server, loaded.chatList.bare),
      },
      getDialogList: {
        server: loaded.dialog.server,
        bareFastify: loaded.dialog.bare,
        ratio: rpsRatio(loaded.dialog.server, loaded.dialog.bare),
      },
    },
    getChatListCold: { chats, server: chatListCold },
    getChatListWide: { chats: wideBody.data.chatList.length, server: wideList, cold: wideCold },
    searchMessages: search,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };

  const row = (name: string, s: Stats, base: Stats) =>
    `${name.padEnd(34)} ${s.p50.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)}   ${base.p50.toFixed(2).padStart(8)} ${base.p99.toFixed(2).padStart(8)}   ${(s.p50 / base.p50).toFixed(2).padStart(6)}× ${(s.p99 / base.p99).toFixed(2).padStart(6)}×`;
  console.log(
    `${''.padEnd(34)} ${'server ms'.padStart(17)}   ${'baseline ms'.padStart(17)}   ${'ratio'.padStart(14)}`,
  );
  console.log(
    `${''.padEnd(34)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}   ${'p50'.padStart(8)} ${'p99'.padStart(8)}   ${'p50'.padStart(7)} ${'p99'.padStart(7)}`,
  );
  console.log(row('delivery A → B (vs socket.io echo)', real, echo));
  console.log(row('delivery A → B (vs durable relay)', real, committed));
  console.log(row('  durable relay (vs socket.io echo)', committed, echo));
  console.log(
    `${'  CPU ms per delivery (vs durable relay)'.padEnd(34)} ${realCpu.toFixed(2).padStart(8)} ${''.padStart(8)}   ${committedCpu.toFixed(2).padStart(8)} ${''.padStart(8)}   ${(realCpu / committedCpu).toFixed(2).padStart(6)}×   (load average ${os.loadavg()[0]!.toFixed(1)})`,
  );
  console.log(row(`getChatList, ${chats} chats (vs Fastify)`, chatList.server, chatList.bare));
  console.log(row(`getDialogList, ${page} msgs (vs Fastify)`, dialog.server, dialog.bare));
  console.log(
    `\nunder load (${CONNECTIONS} connections, ${LOAD_MS / 1000} s)        server req/s   Fastify req/s   ratio`,
  );
  for (const [name, l] of [
    [`getChatList, ${chats} chats`, loaded.chatList],
    [`getDialogList, ${page} msgs`, loaded.dialog],
  ] as const)
    console.log(
      `${name.padEnd(40)} ${l.server.rps.toFixed(0).padStart(12)} ${l.bare.rps.toFixed(0).padStart(15)} ${rpsRatio(l.server, l.bare).toFixed(2).padStart(7)}×`,
    );
  console.log(
    `\ngetChatList, ${wideBody.data.chatList.length} chats (sequential): p50 ${wideList.p50.toFixed(1)} ms, p99 ${wideList.p99.toFixed(1)} ms; ` +
      `rebuilt each time: p50 ${wideCold.p50.toFixed(1)} ms, p99 ${wideCold.p99.toFixed(1)} ms`,
  );
  console.log(
    `getChatList, ${chats} chats rebuilt each time (sequential): p50 ${chatListCold.p50.toFixed(1)} ms, p99 ${chatListCold.p99.toFixed(1)} ms`,
  );

  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  console.log('');
  printSearchBench(search);
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\n${results.seconds} s; written to bench/results/latest.json`);
}

await main();
