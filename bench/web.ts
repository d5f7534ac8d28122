/**
 * The production build served by the real server, for the browser benches (first-load.ts,
 * lighthouse.ts): `npm run build` first. A fresh data folder per run; the dev start seeds the demo
 * accounts (demo1@numa.test: three numbers and their chats).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export async function startWebServer(port: number): Promise<{ stop(): Promise<void> }> {
  const taken = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} already answers: choose another BENCH_PORT`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-web-bench-'));
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      IP_RATE_LIMIT_FACTOR: '100',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => server.once('exit', r));
  const stop = async () => {
    server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { stop };
    if (server.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error('server did not start');
}

/** A screen of the web client as the browser benches open it (`?desktop` is added to the path). */
export interface Screen {
  name: string;
  path: string;
  /** Brands are chosen by host: `<brand>.localhost`. */
  brand: 'numa' | 'jiema';
}

/**
 * The screens of issue 24 §3 (login, chats, contacts, profile, verification on the main brand and on
 * jiema, numbers, recharge and the four histories), or those SCREENS names (a comma list).
 */
export function chosenScreens(): Screen[] {
  const s = (name: string, path: string, brand: Screen['brand'] = 'numa'): Screen => ({ name, path, brand });
  const only = process.env.SCREENS?.split(',');
  return [
    s('login', '/login'),
    s('chats', '/chats'),
    s('contacts', '/contacts'),
    s('profile', '/account/profile'),
    s('verification', '/verification'),
    s('verification-jiema', '/verification', 'jiema'),
    s('numbers', '/numbers'),
    s('recharge', '/account/credit'),
    s('payment-history', '/account/paymentHistory'),
    s('bill-history', '/account/billHistory'),
    s('sms-history', '/account/sms'),
    s('call-history', '/account/call'),
  ].filter((x) => !only || only.includes(x.name));
}

/**
 * The demo account's session on each brand the screens need (a session belongs to the brand it signed
 * in on), signed in through the server at E2E_PORT (set it before calling).
 */
export async function demoSessions(screens: Screen[]): Promise<Record<Screen['brand'], string>> {
  const { apiSignIn } = await import('../e2e/tests/support');
  const on = (brand: Screen['brand']) =>
    screens.some((x) => x.brand === brand)
      ? apiSignIn(brand, { email: 'demo1@numa.test' })
      : Promise.resolve('');
  return { numa: await on('numa'), jiema: await on('jiema') };
}

/** `uptime`'s load averages, to print beside figures measured on a shared machine. */
export const loadAverage = () => os.loadavg().map((n) => Math.round(n * 100) / 100);

/**
 * Writes `bench/results/<name>-latest.json`: a browser bench's figures, after the date, Node's version,
 * the CPUs and the load average they were measured under.
 */
export function writeResults(name: string, figures: Record<string, unknown>): void {
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const head = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: loadAverage(),
  };
  writeFileSync(
    path.join(dir, `${name}-latest.json`),
    `${JSON.stringify({ ...head, ...figures }, null, 2)}
`,
  );
}

/** Debian's Chromium as the browser benches start it (no sandbox as root, no calls home). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
