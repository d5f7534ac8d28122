import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { loadEnv } from './env';
import { serveAdminSocket } from './cli/remote';

const env = loadEnv();
const app = await buildApp({ env });

// the embedded database is one process's: tell the admin command who holds it
const pidFile = env.DATABASE_URL ? null : path.resolve(env.DATA_DIR, 'server.pid');
if (pidFile) {
  mkdirSync(path.dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, String(process.pid));
  const closeAdmin = await serveAdminSocket(app);
  app.addHook('onClose', async () => {
    await closeAdmin();
    rmSync(pidFile, { force: true });
  });
}

closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'closing after an error');
  else app.log.info({ signal }, 'shutting down');
  await app.close();
});

await app.listen({ port: env.PORT, host: env.HOST });
