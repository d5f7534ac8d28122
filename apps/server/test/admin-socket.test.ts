import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite } from '../src/db/pglite';
import { adminSocketPath } from '../src/cli/forward';
import { serveAdminSocket } from '../src/cli/remote';
import { rawQuery, startTestApp, testDbKind, type TestApp } from './helpers';
import { bundled, serverDir } from './spawned';
import { until } from './chat-support';

/**
 * Issue 18: with a server on the embedded database, `npm run admin -- rates export | head -c 10` made
 * the server exit ("closing after an error … read ECONNRESET"): a connection on the operator socket
 * that broke had no error handler. Here a real server process (server.ts, on its own embedded
 * database, its real unix socket) meets every way an operator connection can break — a closed pipe, a
 * client killed with SIGKILL mid-stream, garbage, a request cut short or never finished, an oversize
 * request — and keeps serving HTTP and the operator's next command after each. The operator socket
 * exists only on the embedded database, so the suite runs on PGlite alone.
 */
const onPglite = testDbKind === 'pglite';

interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

let dir = '';
let server: ChildProcess | null = null;
let url = '';
let socketFile = '';
const logs: LogLine[] = [];
const clients: ChildProcess[] = [];
const exited = () => server?.exitCode !== null || server?.signalCode !== null;

/** The admin command as an operator runs it, forwarded to the server over its socket. */
let adminJs = '';
const adminCmd = (args: string) => `${process.execPath} ${adminJs} ${args}`;

function run(cmd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', cmd], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    clients.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A raw connection to the operator socket; what comes back, as reply lines, once the server closes it. */
function raw(
  write: (conn: net.Socket) => void,
): Promise<{ replies: Record<string, unknown>[]; error?: string }> {
  return new Promise((resolve) => {
    const conn = net.connect(socketFile, () => write(conn));
    let text = '';
    let error: string | undefined;
    conn.on('data', (d) => (text += d.toString()));
    conn.on('error', (err) => (error = err.message));
    conn.on('close', () =>
      resolve({
        replies: text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        ...(error ? { error } : {}),
      }),
    );
  });
}

/** The server still answers HTTP and runs a whole operator command; it never logged a fatal error. */
async function stillServing() {
  expect(exited(), 'the server process is still running').toBe(false);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const whole = await raw((c) =>
    c.write(`${JSON.stringify({ argv: ['rates', 'export', '--kind', 'sms'] })}\n`),
  );
  expect(whole.replies.at(-1)).toEqual({ exit: 0 });
  expect(whole.replies[0]).toEqual({ out: 'currency,kind,origin,country,variant,price' });
  expect(logs.filter((l) => l.msg === 'closing after an error')).toEqual([]);
}

const logged = (msg: string | RegExp) =>
  logs.filter((l) => (typeof msg === 'string' ? l.msg === msg : msg.test(l.msg)));

beforeAll(async () => {
  if (!onPglite) return;
  dir = mkdtempSync(path.join(os.tmpdir(), 'numa-admin-sock-'));
  cpSync(inject('pgliteTemplate'), path.join(dir, 'pg'), { recursive: true });
  // a large rates table, so an export is longer than every buffer between the server and the operator
  const db = await openPglite(path.join(dir, 'pg'));
  await rawQuery(
    db.q,
    `INSERT INTO rates (currency, kind, origin, country, variant, amount)
       SELECT 'usd', 'code', '*', 'US', 'bulk' || i, 1000 FROM generate_series(1, 30000) AS i`,
  );
  await db.close();
  socketFile = adminSocketPath({ DATA_DIR: dir });
  adminJs = await bundled('src/cli/admin.ts');
  server = spawn(process.execPath, [await bundled('src/server.ts')], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      WEB_DIST: '/nonexistent',
      DATA_DIR: dir,
      HOST: '127.0.0.1',
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  server.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${errors}`)), 60_000);
    createInterface({ input: server!.stdout! }).on('line', (line) => {
      let l: LogLine;
      try {
        l = JSON.parse(line) as LogLine;
      } catch {
        return;
      }
      logs.push(l);
      const m = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)$/.exec(l.msg);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server!.once('exit', (code) => reject(new Error(`server exited (${code}): ${errors}`)));
  });
}, 90_000);

afterAll(async () => {
  for (const c of clients) if (c.exitCode === null) c.kill('SIGKILL');
  if (server && !exited()) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!onPglite)(
  'the operator socket of a server on the embedded database (pglite)',
  { timeout: 60_000 },
  () => {
    it('starts phase by phase, the jobs once it listens (issue 24 §5), and logs the phases', async () => {
      const started = await until(async () => logged('started')[0]);
      const phases = (started as LogLine & { phases: { phase: string; at: number; ms: number }[] }).phases;
      expect(phases.map((p) => p.phase)).toEqual([
        'configuration',
        'modules',
        'database open',
        'migrations',
        'services',
        'routes',
        'ready',
        'listening',
        'jobs',
      ]);
      for (const [i, p] of phases.entries()) {
        expect(p.ms).toBeGreaterThanOrEqual(0);
        expect(p.at).toBe((i ? phases[i - 1]!.at : 0) + p.ms);
      }
      // what the jobs do at start (the schedules' next runs) is done, and the server answers meanwhile
      expect(logs.findIndex((l) => /^Server listening at /.test(l.msg))).toBeLessThan(logs.indexOf(started));
      await stillServing();
    });

    it('`admin rates export | head -c 10`, twice at once: the output is cut, the server keeps serving', async () => {
      const runs = await Promise.all([1, 2].map(() => run(`${adminCmd('rates export')} | head -c 10`)));
      for (const r of runs) {
        expect(r.stdout).toBe('currency,k');
        // the command stops quietly on the closed pipe, as command-line tools do
        expect(r.stderr).toBe('');
      }
      await stillServing();
      // each client that left before reading everything is told apart from a failure: info, not error
      await until(async () => logged(/went away/).length >= 1, 10_000);
      for (const l of logged(/went away|closed before/)) expect(l.level).toBe(30);
    });

    it('an operator command killed with SIGKILL mid-stream', async () => {
      const before = logged(/went away/).length;
      const child = spawn(process.execPath, [adminJs, 'rates', 'export'], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dir },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      clients.push(child);
      // the first lines arrived: the rest (over a megabyte) is still on its way
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      await until(async () => logged(/went away/).length > before, 10_000);
      await stillServing();
    });

    it('a raw client that resets the connection after the first reply line', async () => {
      const before = logged(/went away/).length;
      await new Promise<void>((resolve) => {
        const conn = net.connect(socketFile, () =>
          conn.write(`${JSON.stringify({ argv: ['rates', 'export'] })}\n`),
        );
        conn.once('data', () => {
          conn.destroy();
          resolve();
        });
      });
      await until(async () => logged(/went away/).length > before, 10_000);
      await stillServing();
    });

    it('garbage on the socket: refused with a reason, logged as a warning', async () => {
      const garbage = await raw((c) => c.write(Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x0a])));
      expect(garbage.replies).toEqual([
        { err: expect.stringContaining('bad request') as unknown },
        { exit: 2 },
      ]);
      const notCommand = await raw((c) => c.write('{"argv": [1, 2]}\n'));
      expect(notCommand.replies.at(-1)).toEqual({ exit: 2 });
      // garbage with no line end, then the client leaves
      await raw((c) => c.end(Buffer.from('\x01\x02\x03 not json at all')));
      // the last refusal is logged as the server reads the client's end, which may come after the reply
      await until(async () => logged(/^operator request refused/).length >= 2, 5_000);
      expect(logged(/^operator request refused/).every((l) => l.level === 40)).toBe(true);
      await stillServing();
    });

    it('a request cut short, or never finished while others are served', async () => {
      await raw((c) => c.end('{"argv": ["rates", "exp'));
      await until(
        async () => logged('operator connection closed before its request was complete').length > 0,
        5_000,
      );
      // a half-sent request that stays open: the server serves everyone else meanwhile
      const hanging = net.connect(socketFile, () => hanging.write('{"argv": ["rates",'));
      hanging.on('error', () => {});
      await new Promise((r) => hanging.once('connect', r));
      await stillServing();
      hanging.destroy();
    });

    it('an oversize request: refused, the connection ended, nothing buffered without bound', async () => {
      const big = await raw((c) => {
        c.on('error', () => {});
        c.write(Buffer.alloc(4 * 1024 * 1024, 0x61));
      });
      expect(big.replies[0]).toEqual({ err: expect.stringContaining('longer than 65536 bytes') as unknown });
      expect(big.replies.at(-1)).toEqual({ exit: 2 });
      await stillServing();
    });
  },
);

describe.skipIf(!onPglite)(
  'the operator socket drops a client that never finishes its request (pglite)',
  () => {
    let t: TestApp;
    let stop: () => Promise<void>;
    let sockDir = '';
    beforeAll(async () => {
      sockDir = mkdtempSync(path.join(os.tmpdir(), 'numa-admin-timeout-'));
      t = await startTestApp({ envOverrides: { DATA_DIR: sockDir } });
      stop = await serveAdminSocket(t.app, { requestTimeoutMs: 200 });
    });
    afterAll(async () => {
      await stop?.();
      await t?.close();
      rmSync(sockDir, { recursive: true, force: true });
    });

    it('after its request timeout, and still answers the next one', async () => {
      const file = adminSocketPath({ DATA_DIR: sockDir });
      const closed = await new Promise<boolean>((resolve) => {
        const c = net.connect(file, () => c.write('{"argv": ["help"'));
        c.on('error', () => {});
        c.on('close', () => resolve(true));
      });
      expect(closed).toBe(true);
      const replies = await new Promise<string>((resolve) => {
        const c = net.connect(file, () => c.write(`${JSON.stringify({ argv: ['help'] })}\n`));
        let text = '';
        c.on('data', (d) => (text += d.toString()));
        c.on('close', () => resolve(text));
      });
      expect(replies.trim().split('\n').at(-1)).toBe('{"exit":0}');
    });
  },
);
