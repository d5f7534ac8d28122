// How the server's processes are bundled: the production build (build.mjs) and the child processes of
// the test suites (test/spawned.ts), one set of options. The contract, imported as TypeScript, goes
// in; npm packages stay external and load from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/**
 * Bundles `entryPoints` (name → file, relative to the working directory) into `outdir`.
 * @param {Record<string, string>} entryPoints
 * @param {string} outdir
 * @param {{ sourcemap?: boolean, dev?: boolean }} [o] dev: the test-only packages stay external too
 */
export async function bundleServer(entryPoints, outdir, o = {}) {
  const deps = Object.keys({ ...pkg.dependencies, ...(o.dev ? pkg.devDependencies : {}) });
  await build({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: o.sourcemap ?? true,
    external: deps.filter((d) => !d.startsWith('@numa/')),
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
}
