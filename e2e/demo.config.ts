import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import base from './playwright.config';

/** The demo deployment's port: beside the main suite's server, so both may run at once. */
export const DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? Number(process.env.E2E_PORT ?? 8091) + 1);

/**
 * A demo deployment (issue 18 §1): the production build started with NODE_ENV=production and
 * DEMO_MODE=1, on a fresh embedded database, and the few checks that need it (the "no real money"
 * banner). Its own small config, so the main suite keeps its development server.
 */
export default defineConfig({
  ...base,
  testDir: 'demo',
  use: { ...base.use, baseURL: `http://localhost:${DEMO_PORT}` },
  webServer: {
    command: `node ${path.resolve(import.meta.dirname, '../apps/server/dist/server.js')}`,
    url: `http://127.0.0.1:${DEMO_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(DEMO_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(os.tmpdir(), `numa-e2e-demo-${process.pid}-${Date.now()}`),
      NODE_ENV: 'production',
      DEMO_MODE: '1',
      LOG_LEVEL: 'warn',
    },
  },
});
