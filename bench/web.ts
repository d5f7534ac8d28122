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
