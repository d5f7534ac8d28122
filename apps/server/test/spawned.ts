import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../bundle.mjs';

/** The server package's folder (the child processes' working directory). */
export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const bundles = path.join(serverDir, '.test-bundles');
const outdir = path.join(bundles, String(process.pid));
const built = new Map<string, Promise<string>>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The folders of test processes gone (a worker is ended without an exit event of its own). */
function sweep() {
  let names: string[];
  try {
    names = readdirSync(bundles);
  } catch {
    return;
  }
  for (const n of names)
    if (!/^\d+$/.test(n) || !alive(Number(n)))
      rmSync(path.join(bundles, n), { recursive: true, force: true });
}

/**
 * A child process's script: `entry` (relative to apps/server) bundled as the production build bundles
 * the server (bundle.mjs), once per test process. Suites that start servers and operator commands as
 * processes spawn `node <this>`: a start costs what a production start costs, where `node --import
 * tsx` compiled the whole source tree again in every child (4.4 s against 7.7 s to listen, and the
 * CPU of it beside the other suites).
 */
export function bundled(entry: string): Promise<string> {
  let p = built.get(entry);
  if (!p) {
    if (!built.size) sweep();
    const name = entry.replace(/\.ts$/, '').replace(/[^\w]+/g, '-');
    p = bundleServer({ [name]: path.join(serverDir, entry) }, outdir, { sourcemap: false, dev: true }).then(
      () => path.join(outdir, `${name}.js`),
    );
    built.set(entry, p);
  }
  return p;
}
