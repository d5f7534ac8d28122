// How the server's processes are bundled: the production build (build.mjs) and the child processes of
// the test suites (test/spawned.ts), one set of options. The contract, imported as TypeScript, goes
// in; npm packages stay external and load from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/**
 * Packages bundled in with the server's code instead of loaded from node_modules at start: Kysely is
 * 279 ES modules, each resolved, read and compiled on its own at every start (155 ms of the warm
 * start, issue 24 §5; one bundled file: ~20 ms). Only packages that are plain code and that nothing
 * outside the bundle shares objects with (a second copy would break `instanceof` and registries: not
 * zod, which zod-openapi reads from node_modules).
 */
const inlined = new Set(['kysely']);

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
    external: deps.filter((d) => !d.startsWith('@numa/') && !inlined.has(d)),
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
}
