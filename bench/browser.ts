/**
 * `npm run build && npm run bench:browser` (issue 24 §1): Enter in A's composer → the text in B's open
 * conversation, in Chromium, against a bare socket.io page pair relaying the same payload in the same run.
 *
 * The product: the production build served by the real server (in this process, on PGlite or, with
 * BENCH_DATABASE_URL, PostgreSQL), two accounts in two browser contexts with a chat of 5,000 messages
 * between them open on both sides. A types a text and presses Enter; a capture-phase keydown listener in
 * A stamps the moment, a MutationObserver in B stamps the moment the text is in B's conversation.
 * The baseline: a page pair on a bare socket.io server (no database, no rules), A's Enter emitting the
 * same payload, the server relaying it to B, B appending it to a list, stamped the same way.
 *
 * The two pages' stamps are `performance.timeOrigin + performance.now()`, each page's clock corrected
 * to the system clock it shares with the other (the mean of many `that − Date.now()` samples, whose
 * millisecond floor spreads them evenly over a millisecond), so the two pages read one clock.
 * 60 texts one at a time (BENCH_TEXTS), after 10 to warm up; p50 and p90, and their ratios.
 * Results: bench/results/browser-latest.json. BENCH_PROFILE=<file> writes a CPU profile of B's page
 * (the product's run) for Chrome DevTools.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { Server } from 'socket.io';
import { buildApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db';
import { raw } from '../apps/server/src/db/raw';
import { loadEnv } from '../apps/server/src/env';
import { SimulatedMail } from '../apps/server/src/providers/mail/simulator';
import { floodLimitsOff, latencyStats, makeAccount, openDb } from './support';
import { chromiumArgs, loadAverage, root } from './web';

const TEXTS = Number(process.env.BENCH_TEXTS ?? 60);
const WARMUP = 10;
const HISTORY = 5_000;
const A_NUMBER = '+14155550901';
const B_NUMBER = '+14155550902';

const flags = [
  ...chromiumArgs,
  // both pages are visible at once in a real use; headless would otherwise throttle the one behind
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

const stats = latencyStats;

/** 5,000 messages between A and B, in both accounts' copies, this month, and both chats' rows. */
async function seedHistory(db: Database, a: { id: number }, b: { id: number }) {
  const now = Date.now();
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const step = Math.max(1, Math.min(60_000, Math.floor((now - monthStart - 60_000) / (HISTORY + 1))));
  for (const [account, own, other, first] of [
    [a.id, A_NUMBER.slice(1), B_NUMBER.slice(1), 'out'],
    [b.id, B_NUMBER.slice(1), A_NUMBER.slice(1), 'in'],
  ] as const) {
    await raw(
      db.q,
      `INSERT INTO messages (account_id, own_full_number, own_tel_code, other_full_number, other_tel_code, direction,
                             type, text, media, status, sms_id, date, charge, segments)
       SELECT $1, $2, '1', $3, '1', CASE WHEN g % 2 = 0 THEN $4 ELSE $5 END, 'sms',
              'History message ' || g || ': a sentence of the length people usually text.', '', 0,
              'hist-' || $2 || '-' || g, $6::bigint - g * $7::bigint, 0, 1
         FROM generate_series(1, ${HISTORY}) AS g`,
      [account, own, other, first, first === 'out' ? 'in' : 'out', now - 60_000, step],
    );
    await raw(
      db.q,
      `INSERT INTO chats (account_id, own_full_number, other_full_number, max_date, last_date, last_message_id)
       SELECT account_id, own_full_number, other_full_number, date, date, id FROM messages
        WHERE account_id = $1 ORDER BY date DESC LIMIT 1`,
      [account],
    );
  }
  await raw(db.q, 'ANALYZE messages, chats');
}

/** Corrects a page's `timeOrigin + now()` to the system clock (see the header). */
const CLOCK = `(() => {
  const samples = [];
  const until = Date.now() + 60;
  while (Date.now() < until) samples.push(performance.timeOrigin + performance.now() - Date.now());
  const offset = samples.reduce((a, b) => a + b, 0) / samples.length - 0.5;
  window.__stamp = () => performance.timeOrigin + performance.now() - offset;
})()`;

/**
 * B: the moment the socket frame carrying the expected text arrives (a listener added before the
 * socket client's own), to split a sample into the way there and B's page's own work.
 */
const STAMP_FRAME = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (window.__expect && typeof e.data === 'string' && e.data.includes(window.__expect))
          window.__frame = window.__stamp ? window.__stamp() : null;
      });
    }
    send(data) {
      if (window.__expectOut && typeof data === 'string' && data.includes(window.__expectOut))
        window.__out = window.__stamp ? window.__stamp() : null;
      return super.send(data);
    }
  };
})()`;

/** A: the Enter that sends, stamped before the page handles it. */
const STAMP_ENTER = `window.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) window.__sent = window.__stamp();
}, true);`;

/** B: the moment the expected text is in the element `selector`. */
const WATCH = (selector: string) => `(() => {
  const target = document.querySelector(${JSON.stringify(selector)});
  if (!target) throw new Error('nothing to watch: ${selector}');
  new MutationObserver(() => {
    if (window.__expect && target.textContent.includes(window.__expect)) {
      window.__seen = window.__stamp();
      window.__expect = null;
    }
  }).observe(target, { childList: true, subtree: true, characterData: true });
})()`;

interface Sample {
  /** A's Enter → the text in B. */
  total: number;
  /** The frame at B's socket → the text in B: B's page's own work. */
  page: number;
  /** A's Enter → the frame leaving A's socket: A's page's own work. */
  sender: number;
}

/** Sends `count` texts from A one at a time; each sample is A's Enter → the text in B. */
async function run(
  a: Page,
  b: Page,
  count: number,
  tag: string,
  settled: () => Promise<void>,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${tag} ${i} ${Math.random().toString(36).slice(2, 8)} how are you today?`;
    await a.keyboard.insertText(text);
    await a.evaluate((t) => {
      (window as unknown as { __expectOut: string }).__expectOut = t;
    }, text);
    await b.evaluate((t) => {
      (window as unknown as { __expect: string | null; __seen: number | null }).__expect = t;
      (window as unknown as { __seen: number | null }).__seen = null;
    }, text);
    await a.keyboard.press('Enter');
    await b.waitForFunction(() => (window as unknown as { __seen: number | null }).__seen !== null, null, {
      timeout: 10_000,
      polling: 20,
    });
    const [sent, out] = await a.evaluate(() => {
      const w = window as unknown as { __sent: number; __out: number };
      return [w.__sent, w.__out];
    });
    const [seen, frame] = await b.evaluate(() => {
      const w = window as unknown as { __seen: number; __frame: number };
      return [w.__seen, w.__frame];
    });
    samples.push({ total: seen - sent, page: seen - frame, sender: out - sent });
    await settled();
  }
  return samples;
}

const BARE_PAGE = (role: 'a' | 'b') => `<!doctype html><meta charset="utf-8"><title>bare ${role}</title>
<input id="text" aria-label="Message" autofocus><ul id="log"></ul>
<script src="/webchat/socket.io.js"></script>
<script>
  const socket = io({ path: '/webchat', transports: ['websocket'], query: { room: '${role}' } });
  const log = document.getElementById('log');
  socket.on('receiveMessage', (m) => {
    if (m.direction !== 'in') return;
    const li = document.createElement('li');
    li.textContent = m.text;
    log.append(li);
  });
  document.getElementById('text').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const text = e.target.value;
    e.target.value = '';
    socket.emit('sendMessage', { fromNumber: '14155550901', toNumber: '14155550902', text, msgType: 'sms',
      smsId: Math.random().toString(36).slice(2), platform: 'numa', languagecode: 'en' });
  });
  window.__connected = new Promise((r) => socket.on('connect', r));
</script>`;

async function bareRun(browser: Browser): Promise<Sample[]> {
  const http = createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(BARE_PAGE(req.url === '/b' ? 'b' : 'a'));
  });
  const io = new Server(http, { path: '/webchat', transports: ['websocket'] });
  io.on('connection', (s) => {
    void s.join(String(s.handshake.query.room));
    s.on('sendMessage', (p: Record<string, unknown>) => {
      io.to('b').emit('receiveMessage', { ...p, direction: 'in', status: 0, time: Date.now() });
      s.emit('receiveMessage', { ...p, direction: 'out', status: 0, time: Date.now() });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const [ca, cb] = [await browser.newContext(), await browser.newContext()];
  await ca.addInitScript(STAMP_FRAME);
  await cb.addInitScript(STAMP_FRAME);
  const [a, b] = [await ca.newPage(), await cb.newPage()];
  await a.goto(`${url}/a`);
  await b.goto(`${url}/b`);
  for (const p of [a, b]) {
    await p.evaluate(() => (window as unknown as { __connected: Promise<void> }).__connected);
    await p.evaluate(CLOCK);
  }
  await a.evaluate(STAMP_ENTER);
  await b.evaluate(WATCH('#log'));
  await a.focus('#text');
  await run(a, b, WARMUP, 'warm', async () => {});
  const samples = await run(a, b, TEXTS, 'bare', async () => {});
  await ca.close();
  await cb.close();
  await io.close();
  return samples;
}

async function productRun(browser: Browser): Promise<{ samples: Sample[]; profile?: unknown }> {
  const { db, dataDir, cleanup } = await openDb('browser');
  const env = loadEnv({
    NODE_ENV: 'production',
    // production with the simulated providers: a demo's opt-in (production is fail-closed, issue 18)
    DEMO_MODE: '1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST: process.env.BENCH_WEB_DIST ?? path.join(root, 'apps/web/dist'),
    IP_RATE_LIMIT_FACTOR: '100',
    ...floodLimitsOff,
  });
  const app = await buildApp({ env, db, mail: new SimulatedMail() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const accountA = await makeAccount(db, 'bench-a@example.com', A_NUMBER, 1000);
  const accountB = await makeAccount(db, 'bench-b@example.com', B_NUMBER, 0);
  await seedHistory(db, accountA, accountB);

  const open = async (token: string, other: RegExp) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((t) => {
      window.localStorage.setItem('numa.token', t);
      window.localStorage.setItem('numa.token.at', String(Date.now()));
    }, token);
    await context.addInitScript(STAMP_FRAME);
    const page = await context.newPage();
    await page.goto(`http://numa.localhost:${port}/chats?desktop`);
    await page.getByRole('list', { name: 'Chats' }).getByRole('button', { name: other }).click();
    await page.getByRole('log').getByText('History message 1:', { exact: false }).first().waitFor();
    await page.evaluate(CLOCK);
    return { context, page };
  };
  const a = await open(accountA.token, /415 555 0902/);
  const b = await open(accountB.token, /415 555 0901/);
  await a.page.evaluate(STAMP_ENTER);
  await b.page.evaluate(WATCH('[role="log"]'));
  await a.page.getByRole('textbox', { name: 'Message' }).click();
  // the next text goes once A's page has the server's confirmation of the last one
  const settled = () =>
    a.page
      .getByRole('log')
      .getByRole('status', { name: 'Sending' })
      .waitFor({ state: 'detached', timeout: 10_000 });
  await run(a.page, b.page, WARMUP, 'warm', settled);
  const cdp = process.env.BENCH_PROFILE ? await b.context.newCDPSession(b.page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  const samples = await run(a.page, b.page, TEXTS, 'real', settled);
  const profile = cdp ? (await cdp.send('Profiler.stop')).profile : undefined;
  await a.context.close();
  await b.context.close();
  await app.close();
  await cleanup();
  return { samples, profile };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: flags,
});
const started = Date.now();
const load = [loadAverage()];
const bare1 = await bareRun(browser);
const product = await productRun(browser);
// the baseline again after, so that a change of load during the run shows in both
const bare2 = await bareRun(browser);
load.push(loadAverage());
await browser.close();

const bare = stats([...bare1, ...bare2].map((s) => s.total));
const real = stats(product.samples.map((s) => s.total));
const barePage = stats([...bare1, ...bare2].map((s) => s.page));
const realPage = stats(product.samples.map((s) => s.page));
const bareSender = stats([...bare1, ...bare2].map((s) => s.sender));
const realSender = stats(product.samples.map((s) => s.sender));
const ratio = {
  p50: Math.round((real.p50 / bare.p50) * 100) / 100,
  p90: Math.round((real.p90 / bare.p90) * 100) / 100,
};
const result = {
  date: new Date().toISOString(),
  database: process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite',
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: load,
  texts: TEXTS,
  history: HISTORY,
  product: real,
  bare,
  ratio,
  /** Of each sample, the part from the frame at B's socket to the text in B's page. */
  receivingPage: { product: realPage, bare: barePage },
  /** Of each sample, the part from A's Enter to the frame leaving A's socket. */
  sendingPage: { product: realSender, bare: bareSender },
  goal: { p50: 3, p90: 4 },
  seconds: Math.round((Date.now() - started) / 1000),
};
console.log(`Enter in A → text in B's open conversation, Chromium, ${TEXTS} texts (ms)`);
console.log(`  product        p50 ${real.p50}  p90 ${real.p90}  mean ${real.mean}`);
console.log(`  bare page pair p50 ${bare.p50}  p90 ${bare.p90}  mean ${bare.mean}`);
console.log(`  ratio          p50 ${ratio.p50}×  p90 ${ratio.p90}×   (goal ≤ 3× / ≤ 4×)`);
console.log(
  `  of which B's page (frame → text): product p50 ${realPage.p50} p90 ${realPage.p90}; bare p50 ${barePage.p50} p90 ${barePage.p90}`,
);
console.log(
  `  of which A's page (Enter → frame out): product p50 ${realSender.p50} p90 ${realSender.p90}; bare p50 ${bareSender.p50} p90 ${bareSender.p90}`,
);
console.log(`  load average ${JSON.stringify(load)}`);
const dir = path.join(root, 'bench/results');
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'browser-latest.json'), `${JSON.stringify(result, null, 2)}\n`);
if (process.env.BENCH_PROFILE && product.profile)
  writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(product.profile));
