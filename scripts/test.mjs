#!/usr/bin/env node
// `npm test`: every check, in the order that fails fastest. Installs what the browser tests need.
//   typecheck, lint and the production build side by side (each mostly one core) → unit and
//   integration suites (vitest: contract, server on PGlite and, with TEST_DATABASE_URL, on PostgreSQL,
//   web; two workers) → end-to-end in Chromium (Playwright, against that build).
// `node scripts/test.mjs <first word of a step>…` runs only those steps (`unit`, `build`, `end-to-end`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Stages run one after the other; the steps of one stage run at once. */
const stages = [
  [['browser', 'node', ['scripts/ensure-chromium.mjs']]],
  [
    ['typecheck', 'npm', ['run', '-s', 'typecheck']],
    ['lint', 'npm', ['run', '-s', 'lint']],
    ['build', 'npm', ['run', '-s', 'build']],
  ],
  [['unit and integration', 'npx', ['vitest', 'run']]],
  [['end-to-end', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']]],
];
const only = process.argv.slice(2);

/** Runs one step; alone it shares the terminal, beside others its output is printed when it ends. */
function run([name, cmd, args], alone) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: alone ? 'inherit' : 'pipe', env: process.env });
    let out = '';
    if (!alone) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('close', (status) => {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      if (out) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      if (status === 0) console.log(`✔ ${name} (${secs}s)`);
      else console.error(`✖ ${name} failed after ${secs}s`);
      resolve(status ?? 1);
    });
  });
}

for (const stage of stages) {
  const steps = stage.filter(([name]) => !only.length || only.includes(name.split(' ')[0]));
  if (!steps.length) continue;
  const statuses = await Promise.all(steps.map((s) => run(s, steps.length === 1)));
  const failed = statuses.find((s) => s !== 0);
  if (failed !== undefined) process.exit(failed);
}
