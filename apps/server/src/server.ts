import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { loadEnv, type Env } from './env';
import { startup } from './lib/startup';
import { refusal } from './providers/requirements';

/** A start refused for its configuration exits with this (sysexits' EX_CONFIG): a supervisor need not retry. */
const configExit = 78;

// the configuration is checked before anything else is loaded or opened: a wrong value, or a
// production start that would run a simulator or lacks a provider's variable, is one message on
// stderr naming every variable, and the exit (issue 18 §1)
let env: Env;
try {
  env = loadEnv();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(configExit);
}
const refused = refusal(env);
if (refused) {
  process.stderr.write(`${refused}\n`);
  process.exit(configExit);
}

startup.mark('configuration');
const { buildApp } = await import('./app');
const { serveAdminSocket } = await import('./cli/remote');
startup.mark('modules');
const app = await buildApp({ env, startJobsLater: true });

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

await app.ready();
startup.mark('ready');
await app.listen({ port: env.PORT, host: env.HOST });
startup.mark('listening');
// the jobs (releasing a previous process's leases, the schedules' next runs, then polling) start once
// the server answers: no request waits for them, and a job enqueued before is picked up by the poll
try {
  await app.deps.jobs.start();
} catch (err) {
  app.log.error({ err }, 'the jobs did not start');
  await app.close();
  process.exit(1);
}
startup.mark('jobs');
app.log.info({ phases: startup.phases() }, 'started');
