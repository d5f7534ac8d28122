/**
 * `npm run bench:main-thread` (issue 24 §3): how much work each screen's first load gives the page's
 * main thread on a phone-speed CPU, measured the way Lighthouse's devtools mode measures it (Chromium
 * throttles the CPU 4× for real, a trace records every task), so that two web builds can be told
 * apart on a machine where Lighthouse's simulated runs of one build spread by 15 points.
 *
 * Each load: a new context (412×823, mobile, no service worker, empty cache), the demo account's
 * session the way the app keeps it, CPU 4× slower, the screen's URL, then WAIT ms (default 6,000)
 * for the screen to settle. From the trace's renderer main thread:
 *   busy     the sum of its tasks from the navigation on (ms);
 *   blocking the sum over its tasks after the first contentful paint of (duration − 50 ms), which is
 *            Lighthouse's total blocking time without its stop at "interactive";
 *   fcp      the first contentful paint (ms after the navigation).
 * Reported per screen: the median of RUNS loads (default 6) and, with BENCH_WEB_DIST_BASE, the same for
 * that build (the baseline: the web client of an earlier commit, built into a folder) and the ratio
 * measured / baseline. The two builds are served in turns (one server each, a fresh data folder, on
 * the same port), ROUNDS times (default 2), so that a slower minute of the machine falls on both.
 *
 *   npm run build && npm run bench:main-thread     (SCREENS=numbers,verification,…; RUNS; ROUNDS;
 *                                                  BENCH_WEB_DIST: the build measured, default
 *                                                  apps/web/dist; BENCH_PORT, default 8192)
 * Results: bench/results/main-thread-latest.json.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import {
  chosenScreens,
  chromiumArgs,
  demoSessions,
  loadAverage,
  root,
  startWebServer,
  writeResults,
  type Screen,
} from './web';

const port = Number(process.env.BENCH_PORT ?? 8192);
process.env.E2E_PORT = String(port);

const RUNS = Number(process.env.RUNS ?? 6);
const WAIT = Number(process.env.WAIT ?? 6000);
const measured = process.env.BENCH_WEB_DIST ?? path.join(root, 'apps/web/dist');
const base = process.env.BENCH_WEB_DIST_BASE;
const ROUNDS = Number(process.env.ROUNDS ?? (base ? 2 : 1));

const screens = chosenScreens();

interface Load {
  busy: number;
  blocking: number;
  fcp: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    frame?: string;
    data?: { documentLoaderURL?: string; isLoadingMainFrame?: boolean; navigationId?: string };
  };
}

const ms = (us: number) => us / 1000;

/** The figures of one load from its trace (see the header). */
function readTrace(events: TraceEvent[], pathName: string): Load {
  const nav = events.find(
    (e) =>
      e.name === 'navigationStart' &&
      e.args?.data?.isLoadingMainFrame &&
      e.args.data.documentLoaderURL?.includes(`${pathName}?desktop`),
  );
  if (!nav) throw new Error(`no navigation to ${pathName} in the trace`);
  const fcp = events.find(
    (e) => e.name === 'firstContentfulPaint' && e.args?.data?.navigationId === nav.args?.data?.navigationId,
  );
  if (!fcp) throw new Error(`no first contentful paint of ${pathName} in the trace`);
  // the renderer's main thread: the one that ran the navigation
  const tasks = events.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === nav.pid && e.tid === nav.tid && e.ts >= nav.ts,
  );
  let busy = 0;
  let blocking = 0;
  for (const t of tasks) {
    const d = ms(t.dur ?? 0);
    busy += d;
    if (t.ts >= fcp.ts && d > 50) blocking += d - 50;
  }
  return { busy, blocking, fcp: ms(fcp.ts - nav.ts) };
}

async function loadOnce(browser: Browser, screen: Screen, token: string, tracePath: string): Promise<Load> {
  const origin = `http://${screen.brand}.localhost:${port}`;
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    // the session as the app keeps it, set on the origin before the screen loads
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(
      ([t, at]) => {
        localStorage.clear();
        if (t) {
          localStorage.setItem('numa.token', t);
          localStorage.setItem('numa.token.at', at!);
        }
      },
      [screen.name === 'login' ? '' : token, String(Date.now())],
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await browser.startTracing(page, {
      path: tracePath,
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'loading',
        'blink.user_timing',
      ],
    });
    await page.goto(`${origin}${screen.path}?desktop`);
    await page.waitForTimeout(WAIT);
    await browser.stopTracing();
    const { traceEvents } = JSON.parse(readFileSync(tracePath, 'utf8')) as { traceEvents: TraceEvent[] };
    return readTrace(traceEvents, screen.path);
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const builds = base ? { measured, base } : { measured };
const loads: Record<string, Record<string, Load[]>> = {};
const tracePath = path.join(os.tmpdir(), `numa-main-thread-${process.pid}.json`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: chromiumArgs,
});
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [build, dist] of Object.entries(builds)) {
      process.env.WEB_DIST = dist;
      const server = await startWebServer(port);
      try {
        const tokens = await demoSessions(screens);
        for (const screen of screens) {
          for (let i = 0; i < RUNS; i++) {
            const load = await loadOnce(browser, screen, tokens[screen.brand], tracePath);
            ((loads[screen.name] ??= {})[build] ??= []).push(load);
          }
        }
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await browser.close();
  rmSync(tracePath, { force: true });
}

const r = (x: number) => Math.round(x);
const results: Record<string, unknown> = {};
console.log(
  `Main thread at 4× CPU — Chromium, ${RUNS * ROUNDS} loads a screen and build, median; load ${loadAverage().join(' ')}\n`,
);
for (const screen of screens) {
  const of = (build: string) => {
    const ls = loads[screen.name]?.[build] ?? [];
    return {
      busy: r(median(ls.map((l) => l.busy))),
      blocking: r(median(ls.map((l) => l.blocking))),
      fcp: r(median(ls.map((l) => l.fcp))),
    };
  };
  const m = of('measured');
  const b = base ? of('base') : null;
  const ratio = b
    ? {
        busy: Math.round((m.busy / b.busy) * 100) / 100,
        blocking: b.blocking ? Math.round((m.blocking / b.blocking) * 100) / 100 : null,
      }
    : null;
  const each = (build: string) =>
    (loads[screen.name]?.[build] ?? []).map((l) => [r(l.busy), r(l.blocking), r(l.fcp)]);
  results[screen.name] = {
    measured: m,
    ...(b ? { base: b, ratio } : {}),
    // every load in the order taken: [busy, blocking, fcp]
    loads: { measured: each('measured'), ...(b ? { base: each('base') } : {}) },
  };
  console.log(
    `${screen.name.padEnd(20)} busy ${String(m.busy).padStart(5)} ms  blocking ${String(m.blocking).padStart(5)} ms  fcp ${String(m.fcp).padStart(5)} ms` +
      (b && ratio
        ? `   | base busy ${String(b.busy).padStart(5)}  blocking ${String(b.blocking).padStart(5)}  fcp ${String(b.fcp).padStart(5)}   | ×${ratio.busy.toFixed(2)} busy, ×${ratio.blocking?.toFixed(2) ?? '–'} blocking`
        : ''),
  );
}
writeResults('main-thread', {
  cpuSlowdown: 4,
  loads: RUNS * ROUNDS,
  measured,
  base: base ?? null,
  results,
});
