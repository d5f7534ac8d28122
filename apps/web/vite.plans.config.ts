import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compactHtml, precompress, productionBuild } from './vite.config';

/**
 * The embedded plans page (issue 11 item 7): a build of its own, after the web client's, into
 * `dist/plans/` (served at /plans/ by apps/server/src/plugins/web.ts). It shares no chunk with the
 * client, so the client's bundles do not change with it. Only the `plans` key of the locales is
 * bundled (JSON named exports, not stringified).
 */
export default defineConfig({
  plugins: [productionBuild(), react(), compactHtml(), precompress('plans')],
  publicDir: false,
  json: { namedExports: true, stringify: false },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    assetsDir: 'plans/assets',
    sourcemap: 'hidden',
    rollupOptions: { input: 'plans/index.html' },
  },
});
