import { chmodSync, existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyInstance } from 'fastify';
import { loadEnv, type Env } from '../env';
import { brandFlag, type OpenContext } from './context';
import type { AdminIo } from './admin';

/**
 * The embedded database belongs to the server process, so while a server runs on it the admin
 * command hands its arguments to that server over a Unix socket in DATA_DIR (mode 0600: only the
 * user running the server can use it) and prints what comes back. Same commands, same code.
 */
export const adminSocketPath = (env: Pick<Env, 'DATA_DIR'>) => path.resolve(env.DATA_DIR, 'admin.sock');

export async function serveAdminSocket(app: FastifyInstance): Promise<() => Promise<void>> {
  const file = adminSocketPath(app.deps.env);
  rmSync(file, { force: true });
  const { runAdmin } = await import('./admin');
  const { env, codesOperator, demo, media, numbers, operator, payments, pricing, review, subscriptions } =
    app.deps;
  const open: OpenContext = async (flags, out) => ({
    env,
    codesOperator,
    demo,
    media,
    numbers,
    operator,
    payments,
    pricing,
    review,
    subscriptions,
    brand: brandFlag(flags, env),
    out,
    close: async () => {},
  });
  const server = net.createServer((conn) => {
    const lines = createInterface({ input: conn });
    lines.once('line', async (line) => {
      const send = (msg: object) => conn.write(`${JSON.stringify(msg)}\n`);
      try {
        const { argv } = JSON.parse(line) as { argv: unknown };
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) throw new Error('bad request');
        const code = await runAdmin(
          argv,
          { out: (l = '') => send({ out: l }), err: (l) => send({ err: l }) },
          open,
        );
        send({ exit: code });
      } catch (err) {
        send({ err: (err as Error).message });
        send({ exit: 1 });
      }
      conn.end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, resolve));
  chmodSync(file, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(file, { force: true });
    });
}

/** Runs the command in the server that holds the embedded database; null when none does. */
export async function forwardToServer(argv: string[], io: AdminIo): Promise<number | null> {
  const env = loadEnv();
  if (env.DATABASE_URL) return null;
  const file = adminSocketPath(env);
  const pidFile = path.resolve(env.DATA_DIR, 'server.pid');
  if (!existsSync(file) || !existsSync(pidFile)) return null;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 0);
  } catch {
    return null; // a stale socket from a crashed server
  }
  return new Promise((resolve, reject) => {
    const conn = net.connect(file, () => conn.write(`${JSON.stringify({ argv })}\n`));
    let exit = 1;
    createInterface({ input: conn }).on('line', (line) => {
      const msg = JSON.parse(line) as { out?: string; err?: string; exit?: number };
      if (msg.out !== undefined) io.out(msg.out);
      if (msg.err !== undefined) io.err(msg.err);
      if (msg.exit !== undefined) exit = msg.exit;
    });
    conn.on('close', () => resolve(exit));
    conn.on('error', reject);
  });
}
