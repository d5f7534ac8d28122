/**
 * Lighthouse (issue 13 §1, issue 24 §3): performance, accessibility, best practices and SEO of every
 * screen (login, chats, contacts, profile, verification on the main brand and on jiema, numbers,
 * recharge and the payment, bill, SMS and call histories), with Lighthouse's mobile preset (a mid-range phone on a slow 4G link,
 * simulated throttling) in Debian's Chromium, against the production build served by the real server.
 * Each screen runs RUNS times (default 3) on an empty HTTP cache; the median run (by performance
 * score) is reported with its metrics and, below 100, what each category holds against the screen.
 * Signed-in screens carry the demo account's session the way the app keeps it (localStorage). The
 * URLs carry `?desktop`, the product's way to stay on the web client from a phone (the main brand
 * otherwise sends a mobile browser to its mobile site, spec 000 §2).
 * Jiema's screen is opened at its own host (brands are chosen by host, jiema.localhost), signed in
 * with a jiema session. Targets: performance ≥ 90 on every screen, accessibility 100. Results in
 * bench/results/lighthouse-latest.json; SCREENS=numbers,… runs only those.
 *
 *   npm run build && npm run bench:lighthouse      (BENCH_PORT, default 8191; RUNS; CHROMIUM_PATH;
 *                                                  LH_REPORTS=<folder> keeps every whole report)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { chosenScreens, demoSessions, loadAverage, startWebServer, writeResults } from './web';

const port = Number(process.env.BENCH_PORT ?? 8191);
const runs = Number(process.env.RUNS ?? 3);
process.env.E2E_PORT = String(port);
const originOf = (brand: 'numa' | 'jiema') => `http://${brand}.localhost:${port}`;

/** Targets: performance ≥ 90 on every screen, accessibility 100. */
const target = { performance: 90, accessibility: 100 };
const screens = chosenScreens();
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const metrics = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
  tti: 'interactive',
} as const;

interface Run {
  scores: Record<(typeof categories)[number], number>;
  metrics: Record<keyof typeof metrics, number>;
  /** Audits below a full score that count in a category, with Lighthouse's display value. */
  flagged: Record<string, string[]>;
  transferKiB: number;
  /** Requests the page made (Lighthouse's network-requests audit). */
  requests: number;
}

function summarise(lhr: Result): Run {
  const scores = Object.fromEntries(
    categories.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as Run['scores'];
  const values = Object.fromEntries(
    Object.entries(metrics).map(([k, id]) => [
      k,
      Math.round((lhr.audits[id]?.numericValue ?? NaN) * 1000) / 1000,
    ]),
  ) as Run['metrics'];
  const flagged: Run['flagged'] = {};
  for (const c of categories) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 1 || a.scoreDisplayMode === 'informative') continue;
      if (c === 'performance' && ref.weight === 0) continue;
      (flagged[c] ??= []).push(`${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    }
  }
  const transfer = lhr.audits['total-byte-weight']?.numericValue ?? 0;
  const requests = (lhr.audits['network-requests']?.details as { items?: unknown[] } | undefined)?.items
    ?.length;
  return {
    scores,
    metrics: values,
    flagged,
    transferKiB: Math.round((transfer / 1024) * 10) / 10,
    requests: requests ?? 0,
  };
}

const server = await startWebServer(port);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  // the demo account seeded at a dev start: three numbers and their chats
  const tokens = await demoSessions(screens);
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const results: Record<string, unknown> = {};
  for (const screen of screens) {
    const done: Run[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      // the session as the app keeps it, set on the origin before Lighthouse loads the screen; the
      // HTTP cache and the service worker are dropped so every run is a first visit (Lighthouse's own storage reset would
      // also drop the session, so it is off)
      const origin = originOf(screen.brand);
      await page.goto(`${origin}/favicon.svg`);
      await page.evaluate(
        (t, at) => {
          localStorage.clear();
          if (t) {
            localStorage.setItem('numa.token', t);
            localStorage.setItem('numa.token.at', at);
          }
        },
        screen.name === 'login' ? '' : tokens[screen.brand],
        String(Date.now()),
      );
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      // and no service worker: an earlier run's worker (registered after its load) would answer
      // every script from its precache, and the run would measure a return visit
      await cdp.send('Storage.clearDataForOrigin', {
        origin,
        storageTypes: 'service_workers,cache_storage',
      });
      await cdp.detach();
      const result = await lighthouse(
        `${origin}${screen.path}?desktop`,
        {
          logLevel: 'error',
          output: 'json',
          onlyCategories: [...categories],
          disableStorageReset: true,
          formFactor: 'mobile',
          throttlingMethod: 'simulate',
        },
        undefined,
        page,
      );
      await page.close();
      if (!result) throw new Error(`no Lighthouse result for ${screen.name}`);
      if (result.lhr.runtimeError) throw new Error(`${screen.name}: ${result.lhr.runtimeError.message}`);
      // LH_REPORTS=<folder>: every run's whole report too, for Lighthouse's viewer
      if (process.env.LH_REPORTS) {
        mkdirSync(process.env.LH_REPORTS, { recursive: true });
        writeFileSync(
          path.join(process.env.LH_REPORTS, `${screen.name}-${i + 1}.json`),
          JSON.stringify(result.lhr),
        );
      }
      done.push(summarise(result.lhr));
    }
    const sorted = [...done].sort((a, b) => a.scores.performance - b.scores.performance);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    results[screen.name] = {
      target,
      median,
      performanceRuns: done.map((r) => r.scores.performance),
      // TBT follows the machine's load: each screen's figures with the load they were measured under
      loadAverage: loadAverage(),
    };
    console.log(
      screen.name.padEnd(18),
      JSON.stringify({ ...median.scores, ...median.metrics, transferKiB: median.transferKiB }),
      `runs ${done.map((r) => r.scores.performance).join('/')}`,
      `requests ${median.requests}`,
      `load ${loadAverage().join(' ')}`,
    );
    for (const [c, list] of Object.entries(median.flagged)) console.log(`   ${c}: ${list.join(', ')}`);
  }
  await browser.disconnect();
  writeResults('lighthouse', { preset: 'mobile (simulated throttling)', runs, results });
} finally {
  chrome.kill();
  await server.stop();
}
