#!/usr/bin/env node
// `npm start`: builds what is not built yet (or is older than its sources), then starts the server
// with the embedded database in ./data, the provider simulators and the web client.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const contract = newest(path.join(root, 'packages/contract/src'));

const targets = [
  // the build's own configuration counts too: a dist/ made by an older one (a development bundle of
  // React, built under NODE_ENV=development before issue 19 §6) is built again
  {
    ws: '@numa/web',
    out: 'apps/web/dist/index.html',
    src: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/plans',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/vite.plans.config.ts',
      'apps/web/package.json',
    ],
  },
  { ws: '@numa/server', out: 'apps/server/dist/server.js', src: ['apps/server/src'] },
];
for (const t of targets) {
  const src = Math.max(
    contract,
    ...t.src.map((s) =>
      statSync(path.join(root, s)).isDirectory() ? newest(path.join(root, s)) : builtAt(path.join(root, s)),
    ),
  );
  if (builtAt(path.join(root, t.out)) < src) {
    console.log(`building ${t.ws}…`);
    const r = spawnSync('npm', ['run', 'build', '-w', t.ws], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

const child = spawn(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'apps/server/dist/server.js')],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data') },
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
