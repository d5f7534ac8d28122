import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadEnv, type Env } from '../env';
import type { AdminIo } from './context';

/**
 * The embedded database belongs to the server process, so while a server runs on it the admin
 * command hands its arguments to that server over a Unix socket in DATA_DIR (mode 0600: only the
 * user running the server can use it) and prints what comes back. Same commands, same code.
 */
export const adminSocketPath = (env: Pick<Env, 'DATA_DIR'>) => path.resolve(env.DATA_DIR, 'admin.sock');

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
  return new Promise((resolve) => {
    const conn = net.connect(file, () => conn.write(`${JSON.stringify({ argv })}\n`));
    let exit: number | null = null;
    createInterface({ input: conn }).on('line', (line) => {
      let msg: { out?: string; err?: string; exit?: number };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (msg.out !== undefined) io.out(msg.out);
      if (msg.err !== undefined) io.err(msg.err);
      if (msg.exit !== undefined) exit = msg.exit;
    });
    conn.on('error', (err) => io.err(`the server's operator socket failed: ${err.message}`));
    conn.on('close', () => {
      if (exit === null) io.err('the server closed the operator socket before the command ended');
      resolve(exit ?? 1);
    });
  });
}
