/**
 * Message search at 100,000 messages (issue 22 §1): `npm run bench:search`, and section (e) of
 * `npm run bench`.
 *
 * One account holds BENCH_SEARCH_MESSAGES (100,000) messages over 200 conversations: English texts
 * of 8 words drawn from a vocabulary of 64 (so a word is in about one message in 8), Chinese texts
 * (one in 7), and a verification code in Chinese in one message of 1,000. Each query is asked
 * REQUESTS times in turn through the real server (GET /web/searchMessages over HTTP: session check,
 * validation, the trigram-indexed query of migration 130, snippets and marks); the baseline is a bare
 * ILIKE scan of the same rows: the same WHERE and ORDER BY … LIMIT 21 run straight on the database
 * against a copy of the account's rows that has the (account_id, date) index of messages but no
 * trigram index — what the search would cost without pg_trgm.
 *
 * Reported: p50 and p99 (ms) per query, for both, and the ratio of the p50s. Issue 22's bar: p50
 * under 50 ms on PGlite. The database is the embedded PGlite, or PostgreSQL with BENCH_DATABASE_URL.
 * Results: bench/results/search.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db';
import { raw } from '../apps/server/src/db/raw';
import { loadEnv } from '../apps/server/src/env';
import { SimulatedMail } from '../apps/server/src/providers/mail/simulator';
import { containsPattern } from '../apps/server/src/repositories/messageSearch';
import { latencyStats, makeAccount, openDb } from './support';

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 60);
const WARMUP = 10;

const QUERIES = [
  { q: '验证码', what: 'Chinese, 1 in 1,000' },
  { q: '咖啡', what: 'Chinese, 1 in 7' },
  { q: 'invoice', what: 'English word, ~1 in 8' },
  { q: 'TWO_WORDS', what: 'two English words' },
  { q: 'zebra', what: 'no match' },
  { q: 'ok', what: 'two letters (no trigram)' },
];

/** The multipliers choosing a text's 8 words (word i of message g is WORDS[(g × PICKS[i]) mod 64]). */
const PICKS = [7919, 104729, 1299709, 15485863, 32452843, 49979687, 67867967, 86028121];
/** Two words that are together in some messages: the 1st and 2nd word of message 3 (mod 64 patterns repeat). */
const twoWords = () => `${WORDS[(3 * PICKS[0]!) % WORDS.length]} ${WORDS[(3 * PICKS[1]!) % WORDS.length]}`;

const WORDS = (
  'hello thanks please meeting tomorrow invoice delivery order package arrived call back later today ' +
  'tonight morning evening weekend lunch dinner coffee office store price discount payment account ' +
  'ticket flight hotel booking confirm cancel reschedule address street parking ok sure great fine ' +
  'sorry problem question answer update status shipped tracking number code refund receipt balance ' +
  'support team manager client customer document signature contract'
).split(/\s+/);

interface Stats {
  n: number;
  p50: number;
  p99: number;
}
const stats: (samples: number[]) => Stats = latencyStats;

/** The account's messages, written by the database in one statement per 20,000. */
export async function seed(db: Database, accountId: number, own: string) {
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const pick = (k: number) => `(${words})[1 + ((g::bigint * ${k}) % ${WORDS.length})::int]`;
  const english = PICKS.map(pick).join(` || ' ' || `);
  for (let from = 1; from <= MESSAGES; from += 20_000) {
    const to = Math.min(MESSAGES, from + 19_999);
    await raw(
      db.q,
      `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code,
                             direction, type, text, media, status, sms_id, date, charge, segments)
       SELECT $1, $2, '1', (12125550000 + g % 200)::text, '1', CASE WHEN g % 2 = 0 THEN 'in' ELSE 'out' END,
              'sms',
              CASE WHEN g % 1000 = 0 THEN '您的验证码是 ' || (1000 + g % 9000) || '，5 分钟内有效。'
                   WHEN g % 7 = 0 THEN '明天下午三点在咖啡馆见面，记得带上文件 #' || g
                   ELSE ${english} || ' #' || g END,
              '', 0, 'bench-' || g, $3::bigint + g * 1000, 0, 1
         FROM generate_series($4::int, $5::int) g`,
      [accountId, own, Date.now() - MESSAGES * 1000, from, to],
    );
  }
  // the baseline's copy: the same rows, with messages' (account_id, date) index and no trigram index
  await raw(db.q, `DROP TABLE IF EXISTS bench_search_plain`);
  await raw(db.q, `CREATE TABLE bench_search_plain AS SELECT * FROM messages WHERE account_id = $1`, [
    accountId,
  ]);
  await raw(db.q, `CREATE INDEX ON bench_search_plain (account_id, date DESC)`);
  await raw(db.q, `ANALYZE messages`);
  await raw(db.q, `ANALYZE bench_search_plain`);
}

export interface SearchBench {
  messages: number;
  queries: { q: string; what: string; hits: number; search: Stats; ilike: Stats; ratioP50: number }[];
}

/** Runs the search bench on `db` with its own app (or the caller's app at `serverUrl`). */
export async function searchBench(db: Database, serverUrl: string): Promise<SearchBench> {
  const user = await makeAccount(db, `bench-search-${process.pid}@example.com`, '+14155550931', 0);
  await seed(db, user.id, user.number);
  const headers = { 'auth-token': user.token, host: 'localhost' };
  const out: SearchBench = { messages: MESSAGES, queries: [] };
  for (const query of QUERIES) {
    const what = query.what;
    const q = query.q === 'TWO_WORDS' ? twoWords() : query.q;
    const url = `${serverUrl}/web/searchMessages?q=${encodeURIComponent(q)}&languagecode=en`;
    const ask = async () => {
      const t0 = performance.now();
      const body = (await (await fetch(url, { headers })).json()) as {
        retcode: number;
        data: { results: unknown[] };
      };
      const ms = performance.now() - t0;
      if (body.retcode !== 0) throw new Error(`search ${q}: retcode ${body.retcode}`);
      return { ms, hits: body.data.results.length };
    };
    const terms = q.split(/\s+/);
    const where = terms.map((_, i) => `AND text ILIKE $${i + 2}`).join(' ');
    const bare = async () => {
      const t0 = performance.now();
      await raw(
        db.q,
        `SELECT id, sms_id, date, own_full_number, other_full_number, direction, type, text
           FROM bench_search_plain
          WHERE account_id = $1 AND deleted = false ${where}
          ORDER BY date DESC, id DESC LIMIT 21`,
        [user.id, ...terms.map(containsPattern)],
      );
      return performance.now() - t0;
    };
    let hits = 0;
    for (let i = 0; i < WARMUP; i++) {
      hits = (await ask()).hits;
      await bare();
    }
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      ours.push((await ask()).ms);
      theirs.push(await bare());
    }
    const search = stats(ours);
    const ilike = stats(theirs);
    out.queries.push({
      q,
      what,
      hits,
      search,
      ilike,
      ratioP50: Math.round((search.p50 / ilike.p50) * 100) / 100,
    });
  }
  await raw(db.q, `DROP TABLE IF EXISTS bench_search_plain`);
  return out;
}

export function printSearchBench(r: SearchBench) {
  console.log(`Message search, ${r.messages.toLocaleString('en')} messages of one account (p50 / p99 ms):`);
  for (const x of r.queries)
    console.log(
      `  ${`"${x.q}"`.padEnd(20)} ${x.what.padEnd(26)} ${String(x.hits).padStart(2)} hits  search ${x.search.p50} / ${x.search.p99}   bare ILIKE ${x.ilike.p50} / ${x.ilike.p99}   ×${x.ratioP50}`,
    );
}

async function main() {
  const { db, dataDir, cleanup } = await openDb('search');
  const env = loadEnv({
    NODE_ENV: 'production',
    DEMO_MODE: '1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    VALIDATE_RESPONSES: 'false',
    ACCOUNT_CALLS_PER_SECOND: '100000',
    ACCOUNT_CALLS_BURST: '100000',
  });
  const app = await buildApp({ env, db, mail: new SimulatedMail() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  console.log(
    `Search bench — ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}\n`,
  );
  const started = performance.now();
  const r = await searchBench(db, url);
  printSearchBench(r);
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'search.json'),
    `${JSON.stringify({ date: new Date().toISOString(), database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite', seconds: Math.round((performance.now() - started) / 1000), ...r }, null, 2)}\n`,
  );
  await app.close();
  await cleanup();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
