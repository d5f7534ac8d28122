#!/usr/bin/env node
// `npm test`: every check. Installs what the browser tests need. The steps run as soon as what they
// need is done, not in stages, so that both cores stay busy:
//   the browser check, typecheck, lint and the production build at once; the unit and integration
//   suites (vitest: contract, server on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, web; two
//   workers) once lint and the build are done; end-to-end in Chromium (Playwright, against that build)
//   as soon as the build and the browser are there, beside vitest. The end-to-end run mostly waits (on
//   the browser, the server, its timers), so vitest fills the idle core; vitest, the typecheck and lint
//   run at a lower CPU priority (nice) so that the end-to-end run, whose steps have deadlines, gets the
//   CPU when it asks. The demo deployment's few end-to-end checks (e2e/demo.config.ts, its own
//   production server with DEMO_MODE=1) follow the main end-to-end run, beside vitest, at the same
//   lower priority. The first step
//   that fails stops the others.
// `node scripts/test.mjs <first word of a step>…` runs only those steps (`unit`, `build`, `end-to-end`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * @typedef {{ name: string, cmd: string, args: string[], after?: string[], background?: boolean, env?: Record<string, string> }} Step
 * `after`: the steps that must have passed first; `background`: runs at a lower CPU priority; `env`:
 * added to the environment.
 */
/** @type {Step[]} */
const steps = [
  { name: 'browser', cmd: 'node', args: ['scripts/ensure-chromium.mjs'] },
  { name: 'typecheck', cmd: 'npm', args: ['run', '-s', 'typecheck'], background: true },
  { name: 'lint', cmd: 'npm', args: ['run', '-s', 'lint'], background: true },
  // built as `NODE_ENV=development npm start` would build it (the server's default mode): the bundle
  // must be the production one all the same (issue 19 §6; e2e/tests/first-load.spec.ts checks it)
  { name: 'build', cmd: 'npm', args: ['run', '-s', 'build'], env: { NODE_ENV: 'development' } },
  {
    name: 'unit and integration',
    cmd: 'npx',
    args: ['vitest', 'run'],
    after: ['lint', 'build'],
    background: true,
  },
  {
    name: 'end-to-end',
    cmd: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
    after: ['browser', 'build'],
  },
  // a demo deployment (NODE_ENV=production, DEMO_MODE=1) on a server of its own, once the main
  // end-to-end run is over (one Chromium at a time), beside the end of vitest, at its lower priority:
  // after vitest, as it was, it ran alone on one core while the other idled
  {
    name: 'end-to-end demo',
    cmd: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/demo.config.ts'],
    after: ['browser', 'build', 'end-to-end'],
    background: true,
  },
];
const only = process.argv.slice(2);
const chosen = steps.filter(({ name }) => !only.length || only.includes(name.split(' ')[0]));
const names = new Set(chosen.map((s) => s.name));
const alone = chosen.length === 1;
// a step waits only for the chosen steps it needs (`test.mjs end-to-end` expects a build already made)
for (const s of chosen) s.after = (s.after ?? []).filter((n) => names.has(n));

/** Background steps run under `nice` where there is one (Linux, macOS); their children inherit it. */
const niced = ({ cmd, args, background }) =>
  background && process.platform !== 'win32' ? ['nice', ['-n', '10', cmd, ...args]] : [cmd, args];

const running = new Map();
const done = new Set();

/** Runs one step; alone it shares the terminal, beside others its output is printed when it ends. */
function run(step, alone) {
  const started = Date.now();
  console.log(`\n▶ ${step.name}`);
  return new Promise((resolve) => {
    const [cmd, args] = niced(step);
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: alone ? 'inherit' : 'pipe',
      env: { ...process.env, ...step.env },
      // beside others, its own process group, so that a failure elsewhere can stop it with everything
      // it started (alone, it stays in the terminal's foreground group)
      detached: !alone && process.platform !== 'win32',
    });
    running.set(step.name, child);
    let out = '';
    // a command that cannot start (not installed) fails its step; 'close' follows
    child.on('error', (err) => (out += `${err.message}\n`));
    if (!alone) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('close', (status) => {
      running.delete(step.name);
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      if (out) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      if (status === 0) console.log(`✔ ${step.name} (${secs}s)`);
      else console.error(`✖ ${step.name} failed after ${secs}s`);
      resolve(status ?? 1);
    });
  });
}

/** Stops the steps still running (their whole process groups). */
function stopAll() {
  for (const child of running.values()) {
    try {
      if (!alone && process.platform !== 'win32') process.kill(-child.pid, 'SIGTERM');
      else child.kill();
    } catch {
      // already gone
    }
  }
}
process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});

const pending = new Set(chosen);
const statuses = new Map();
await new Promise((resolve) => {
  const next = () => {
    for (const step of [...pending]) {
      if (!step.after.every((n) => done.has(n))) continue;
      pending.delete(step);
      void run(step, alone).then((status) => {
        statuses.set(step.name, status);
        if (status !== 0) {
          stopAll();
          resolve();
          return;
        }
        done.add(step.name);
        if (statuses.size === chosen.length) resolve();
        else next();
      });
    }
  };
  next();
  if (!chosen.length) resolve();
});
const failed = [...statuses.values()].find((s) => s !== 0);
if (failed !== undefined) process.exit(failed);
