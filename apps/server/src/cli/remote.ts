/** The server's side of the operator socket: runs the commands the admin client hands over (cli/forward.ts). */
import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { brandFlag, type OpenContext } from './context';
import { adminSocketPath } from './forward';

export interface AdminSocketOptions {
  /** The request (one JSON line) must arrive whole within this time, or the connection is dropped. */
  requestTimeoutMs: number;
  /** The longest request line; a longer one is refused and the connection dropped. */
  maxRequestBytes: number;
  /** Output the operator's client has not read yet, beyond which the connection is dropped (the command still runs to its end). */
  maxPendingBytes: number;
  /** Operator connections at once. */
  maxConnections: number;
}

export const defaultAdminSocketOptions: AdminSocketOptions = {
  requestTimeoutMs: 10_000,
  maxRequestBytes: 64 * 1024,
  maxPendingBytes: 32 * 1024 * 1024,
  maxConnections: 16,
};

/** A peer that went away: the operator's command was killed, or its reader (`| head`) stopped reading. */
const brokenPipe = (err: NodeJS.ErrnoException) =>
  err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';

/**
 * Serves the operator's commands on DATA_DIR/admin.sock. Nothing that arrives on the socket may harm
 * the server (issue 18): a client that goes away mid-output (`| head -c 10`, kill -9), garbage, a
 * request cut short, never finished or too long — each is logged (info for a client that left, warn
 * for malformed traffic) and only that connection ends. A command whose client left runs to its end
 * (a write it started is not cut in half); its output is dropped.
 */
export async function serveAdminSocket(
  app: FastifyInstance,
  options: Partial<AdminSocketOptions> = {},
): Promise<() => Promise<void>> {
  const o: AdminSocketOptions = { ...defaultAdminSocketOptions, ...options };
  const file = adminSocketPath(app.deps.env);
  rmSync(file, { force: true });
  const { runAdmin } = await import('./admin');
  const {
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
    apiKeys,
  } = app.deps;
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
    apiKeys,
    brand: brandFlag(flags, env),
    out,
    close: async () => {},
  });
  let seq = 0;

  const server = net.createServer((conn) => {
    const log = app.log.child({ adminConnection: ++seq });
    /**
     * request: reading the request line; command: its command runs; ended: every reply handed to the
     * socket and our side closed (the client reads the rest); gone: the connection is over.
     */
    let phase = 'request' as 'request' | 'command' | 'ended' | 'gone';
    /** Read again after an await (the connection's events may have moved it on meanwhile). */
    const now = () => phase;
    let command = '';
    let received = Buffer.alloc(0);
    const context = () => ({ during: phase, ...(command ? { command } : {}) });

    /** Ends the connection at once (no more replies), logged once. */
    const drop = (level: 'debug' | 'info' | 'warn', msg: string, extra: object = {}) => {
      if (phase === 'gone') return;
      log[level]({ ...extra, ...context() }, msg);
      phase = 'gone';
      conn.destroy();
    };
    /** Our side is done: the replies written so far still reach a client that reads them. */
    const finish = () => {
      if (phase === 'gone' || phase === 'ended') return;
      phase = 'ended';
      // a client that never reads nor closes is not kept for ever
      conn.setTimeout(o.requestTimeoutMs);
      conn.end();
    };

    conn.on('error', (err: NodeJS.ErrnoException) => {
      if (!brokenPipe(err)) drop('warn', 'operator connection failed', { err });
      else if (phase === 'request') drop('info', 'operator connection broke before its request was complete');
      else
        drop('info', "operator command's client went away before reading all of its output", {
          code: err.code,
        });
    });
    conn.on('close', () => {
      if (phase === 'request')
        drop(
          received.length ? 'info' : 'debug',
          'operator connection closed before its request was complete',
          {
            bytes: received.length,
          },
        );
      else if (phase === 'command')
        drop(
          'info',
          "operator command's client went away while the command ran; the command runs to its end",
        );
      phase = 'gone';
    });
    conn.setTimeout(o.requestTimeoutMs, () => {
      if (phase === 'request')
        drop('warn', 'operator connection sent no complete request in time; dropped', {
          bytes: received.length,
          timeoutMs: o.requestTimeoutMs,
        });
      else if (phase === 'ended')
        drop('info', "operator command's client stopped reading its output; dropped");
    });

    /** One reply line; dropped once the client is gone, and the client dropped when it stops reading. */
    const send = (msg: object) => {
      if (phase !== 'command' && phase !== 'request') return;
      if (conn.destroyed || !conn.writable) return;
      if (conn.writableLength > o.maxPendingBytes) {
        drop('warn', "operator command's client stopped reading its output; dropped", {
          pendingBytes: conn.writableLength,
        });
        return;
      }
      conn.write(`${JSON.stringify(msg)}\n`);
    };
    /** Malformed traffic: told why, logged as a warning (nothing an operator's command sends). */
    const refuse = (why: string, extra: object) => {
      log.warn({ ...extra, ...context() }, `operator request refused: ${why}`);
      send({ err: `bad request: ${why}` });
      send({ exit: 2 });
      finish();
    };

    conn.on('data', (chunk: Buffer) => {
      // after the request line the client has nothing more to say: the rest is read and ignored
      if (phase !== 'request') return;
      const nl = chunk.indexOf(0x0a);
      const head = nl < 0 ? chunk : chunk.subarray(0, nl);
      if (received.length + head.length > o.maxRequestBytes) {
        refuse(`longer than ${o.maxRequestBytes} bytes`, { bytes: received.length + head.length });
        return;
      }
      received = Buffer.concat([received, head]);
      if (nl >= 0)
        handle(received.toString('utf8')).catch((err: unknown) =>
          drop('warn', 'operator connection failed', { err }),
        );
    });

    const handle = async (line: string) => {
      let argv: string[];
      try {
        const req = JSON.parse(line) as { argv?: unknown } | null;
        const a = req?.argv;
        if (!Array.isArray(a) || !a.every((x) => typeof x === 'string')) throw new Error('no argv');
        argv = a;
      } catch {
        refuse('expected one line {"argv": ["command", …]}', { bytes: line.length });
        return;
      }
      phase = 'command';
      conn.setTimeout(0); // a command may take its time
      command = argv.slice(0, 2).join(' ');
      let code = 1;
      try {
        code = await runAdmin(
          argv,
          { out: (l = '') => send({ out: l }), err: (l) => send({ err: l }) },
          open,
        );
      } catch (err) {
        log.error({ err, command }, 'operator command failed');
        send({ err: (err as Error).message });
      }
      if (now() === 'gone') log.info({ command, exit: code }, 'operator command ended after its client left');
      send({ exit: code });
      finish();
    };
  });
  server.maxConnections = o.maxConnections;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, resolve));
  // a failure of the listening socket after the start (accept: too many open files) is logged, never fatal
  server.on('error', (err) => app.log.error({ err }, 'operator socket failed'));
  chmodSync(file, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(file, { force: true });
    });
}
