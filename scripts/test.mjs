#!/usr/bin/env node
// `npm test`: every check, in the order that fails fastest. Installs what the browser tests need.
//   typecheck → lint → unit and integration suites (vitest: contract, server on PGlite and, with
//   TEST_DATABASE_URL, on PostgreSQL, web) → production build → end-to-end in Chromium (Playwright).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const steps = [
  ['browser', 'node', ['scripts/ensure-chromium.mjs']],
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['unit and integration', 'npx', ['vitest', 'run']],
  ['build', 'npm', ['run', '-s', 'build']],
  ['end-to-end', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']],
];
const only = process.argv.slice(2);
for (const [name, cmd, args] of steps) {
  if (only.length && !only.includes(name.split(' ')[0])) continue;
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`✖ ${name} failed after ${secs}s`);
    process.exit(r.status ?? 1);
  }
  console.log(`✔ ${name} (${secs}s)`);
}
