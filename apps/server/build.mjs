// Bundles the server (and the contract it imports as TypeScript) into dist/; npm packages stay external.
import { existsSync } from 'node:fs';
import { bundleServer } from './bundle.mjs';

await bundleServer(
  Object.fromEntries(
    Object.entries({ server: 'src/server.ts', admin: 'src/cli/admin.ts' }).filter(([, f]) => existsSync(f)),
  ),
  'dist',
);
console.log('server built: dist/server.js');
