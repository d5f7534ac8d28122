import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

export const PORT = Number(process.env.E2E_PORT ?? 8091);
// one data folder per run, shared with the workers (they inherit the runner's environment) so tests
// can run the operator command against the server (it forwards over DATA_DIR/admin.sock)
const dataDir = (process.env.E2E_DATA_DIR ??= path.join(
  os.tmpdir(),
  `numa-e2e-${process.pid}-${Date.now()}`,
));

/**
 * End-to-end tests: the production build of the server and web client, on a fresh embedded database,
 * driven in Debian's Chromium (no browser download).
 */
export default defineConfig({
  testDir: 'tests',
  outputDir: '../test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // CI runs these beside the unit suites on 2 cores: a test that ran out of time there (every step
  // slow, none stuck) gets one more try, and the list reporter still names it as flaky
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    // recording a trace costs every action a DOM snapshot and every test a screencast: in CI only the
    // retry of a failed test records one (account + theme specs: 96 → 74 s, 64 → 41 s of CPU);
    // locally, where there is no retry, every failure keeps its trace
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // the service worker is pwa.spec.ts's to prove (its context allows it): in every other test's new
    // context it would install anew and precache the whole build, about a hundred files, before the
    // test had done anything (18–22% of a spec's CPU)
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `node ${path.resolve(import.meta.dirname, '../apps/server/dist/server.js')}`,
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    // a loaded machine can take most of a minute to start the server (migrations on a new PGlite)
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      IP_RATE_LIMIT_FACTOR: '100',
    },
  },
});
