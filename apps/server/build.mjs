// Bundles the server (and the contract it imports as TypeScript) into dist/; npm packages stay external.
import { existsSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@numa/'));

await build({
  entryPoints: Object.fromEntries(
    Object.entries({ server: 'src/server.ts', admin: 'src/cli/admin.ts' }).filter(([, f]) => existsSync(f)),
  ),
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
console.log('server built: dist/server.js');
