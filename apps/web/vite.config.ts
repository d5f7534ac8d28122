import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const server = process.env.NUMA_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  define: { __WEB_VERSION__: JSON.stringify(version) },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 900 },
  server: {
    port: 5173,
    proxy: {
      '/web': { target: server, changeOrigin: false },
      '/dev': { target: server, changeOrigin: false },
      '/media': { target: server, changeOrigin: false },
      '/webchat': { target: server, ws: true, changeOrigin: false },
    },
  },
});
