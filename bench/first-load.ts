/**
 * First load (issue 13 §1): what each screen moves over the wire on a first visit (empty cache), in
 * Debian's Chromium against the production build (`npm run build` first), and how long until the
 * screen can be used on a throttled 1.6 Mbps / 150 ms connection (Chromium's network emulation).
 *
 * Reported per screen: bytes Chromium received (headers included, as it negotiated them), and the
 * bodies of the same requests asked for again with `Accept-Encoding: br` and with `gzip` only (what a
 * browser gets over HTTPS, where every browser takes brotli, and from an old one). The screen is
 * "usable" when its main control shows (login: Get code; chats: New SMS; contacts: Add contact;
 * profile: the profile heading); the time is from navigation to then, throttled. Targets: login
 * ≤ 170 KiB, chats ≤ 250 KiB (brotli). Results in bench/results/first-load-latest.json.
 *
 *   npm run build && npm run bench:first-load      (BENCH_PORT, default 8190)
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, startWebServer, writeResults } from './web';

const port = Number(process.env.BENCH_PORT ?? 8190);
process.env.E2E_PORT = String(port);
const { apiSignIn } = await import('../e2e/tests/support');

/** The body size of one GET as sent with the given Accept-Encoding (no decoding). */
function encodedSize(url: string, encoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: u.pathname + u.search,
        headers: { host: u.host, 'accept-encoding': encoding },
      },
      (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      },
    );
    req.on('error', reject);
  });
}

interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
  ready: (page: Page) => Promise<unknown>;
}

const screens: Screen[] = [
  {
    name: 'login',
    path: '/login',
    signedIn: false,
    ready: (p) => p.getByRole('button', { name: 'Get code' }).waitFor(),
  },
  {
    name: 'chats',
    path: '/chats',
    signedIn: true,
    ready: (p) => p.getByRole('button', { name: 'New SMS' }).waitFor(),
  },
  {
    name: 'contacts',
    path: '/contacts',
    signedIn: true,
    ready: (p) => p.getByRole('button', { name: 'Add contact' }).first().waitFor(),
  },
  {
    name: 'profile',
    path: '/account/profile',
    signedIn: true,
    ready: (p) => p.getByRole('heading', { name: 'Profile' }).first().waitFor(),
  },
];

interface Load {
  transferred: number;
  requests: { url: string; type: string; encoding: string; bytes: number }[];
  readyMs: number;
}

async function load(
  browser: Browser,
  screen: Screen,
  token: string | null,
  throttle: boolean,
): Promise<Load> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  if (token) {
    await context.addInitScript((t) => {
      window.localStorage.setItem('numa.token', t);
      window.localStorage.setItem('numa.token.at', String(Date.now()));
    }, token);
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttle) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: 1.6e6 / 8,
      uploadThroughput: 750e3 / 8,
    });
  }
  const seen = new Map<string, { url: string; type: string; encoding: string }>();
  const requests: Load['requests'] = [];
  let last = Date.now();
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    seen.set(e.requestId, { url: e.response.url, type: e.type, encoding: h['content-encoding'] ?? '' });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = seen.get(e.requestId);
    if (r) requests.push({ ...r, bytes: e.encodedDataLength });
    last = Date.now();
  });
  const started = Date.now();
  await page.goto(`http://numa.localhost:${port}${screen.path}`);
  await screen.ready(page).catch(async (e: unknown) => {
    await page.screenshot({ path: path.join(os.tmpdir(), `first-load-${screen.name}.png`) });
    throw e;
  });
  const readyMs = Date.now() - started;
  // whatever the screen fetches after showing (lazy chunks, lists) counts too: until 1.5 s of quiet
  const deadline = Date.now() + 30_000;
  while (Date.now() - last < 1500 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await context.close();
  return { transferred: requests.reduce((s, r) => s + r.bytes, 0), requests, readyMs };
}

const kib = (n: number) => Math.round((n / 1024) * 10) / 10;

const server = await startWebServer(port);
try {
  // the demo account seeded at a dev start: three numbers and their chats
  const token = await apiSignIn('numa', { email: 'demo1@numa.test' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  const results: Record<string, unknown> = {};
  for (const screen of screens) {
    const fast = await load(browser, screen, screen.signedIn ? token : null, false);
    const slow = await load(browser, screen, screen.signedIn ? token : null, true);
    const sameOrigin = fast.requests.filter(
      (r) => r.url.startsWith(`http://numa.localhost:${port}/`) && !r.url.includes('/webchat'),
    );
    let br = 0;
    let gz = 0;
    for (const r of sameOrigin) {
      if (r.type === 'Fetch' || r.type === 'XHR') {
        // API answers are POSTs with bodies: counted as Chromium received them
        br += r.bytes;
        gz += r.bytes;
        continue;
      }
      br += await encodedSize(r.url, 'br');
      gz += await encodedSize(r.url, 'gzip');
    }
    const row = {
      chromiumTransferredKiB: kib(fast.transferred),
      chromiumEncodings: [...new Set(fast.requests.map((r) => r.encoding || 'identity'))],
      brotliKiB: kib(br),
      gzipKiB: kib(gz),
      requests: fast.requests.length,
      usableMsThrottled: slow.readyMs,
      usableMsUnthrottled: fast.readyMs,
    };
    results[screen.name] = row;
    if (process.env.BENCH_VERBOSE)
      for (const r of fast.requests) console.log('  ', r.type, r.encoding, r.bytes, r.url);
    console.log(screen.name.padEnd(9), JSON.stringify(row));
  }
  await browser.close();
  writeResults('first-load', { network: '1.6 Mbps down / 750 kbps up / 150 ms', results });
} finally {
  await server.stop();
}
