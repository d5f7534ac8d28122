/**
 * `npm run bench:warm-start`: how long the built server takes to answer /healthz when started again
 * on the data folder of an earlier start (issue 24 §5: warm start ≤ 1.5 s on PGlite), against a
 * baseline in the same run. `npm run build` first.
 *
 * One data folder: a cold start (a new database: migrations, the demo accounts of the development
 * start), stopped, then BENCH_WARM_STARTS (5) warm starts, each stopped with SIGTERM before the next.
 * Each start is timed from spawn to the first /healthz that answers 200 (polled every 5 ms). The
 * server logs its phases once it listens ("started", lib/startup.ts); their medians are reported.
 *
 * Baseline: a bare `node -e` that opens the same PGlite data folder (with the same extension) and
 * listens with a bare Fastify whose /healthz runs `SELECT 1`, timed the same way, as often: the
 * ratio shows what the server adds to opening the database and listening.
 * BENCH_SERVER_JS starts another build (another checkout's apps/server/dist/server.js) instead.
 * Results: bench/results/warm-start-latest.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadAverage, root } from './web';

const PORT = Number(process.env.BENCH_PORT ?? 8096);
const WARM = Number(process.env.BENCH_WARM_STARTS ?? 5);
/** The build to start (BENCH_SERVER_JS: another build's, e.g. a checkout of main's, to compare). */
const serverJs = process.env.BENCH_SERVER_JS ?? path.join(root, 'apps/server/dist/server.js');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r0 = (x: number) => Math.round(x);

/** The bare baseline: PGlite on the same folder, a bare Fastify, /healthz asks the database. */
const bareScript = `
const { PGlite } = await import('@electric-sql/pglite');
const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
const { default: Fastify } = await import('fastify');
const pg = await PGlite.create({ dataDir: process.env.PG_DIR, extensions: { pg_trgm } });
const app = Fastify();
app.get('/healthz', async () => { await pg.query('SELECT 1'); return { status: 'ok' }; });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', async () => { await app.close(); await pg.close(); process.exit(0); });
`;

interface Start {
  ms: number;
  phases?: { phase: string; at: number; ms: number }[];
}

async function timeStart(args: string[], env: Record<string, string>, cwd: string): Promise<Start> {
  const taken = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${PORT} already answers: choose another BENCH_PORT`);
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env, PORT: String(PORT) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  let ms = 0;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      ms = performance.now() - t0;
      break;
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill('SIGTERM');
  await exited;
  if (!ms) throw new Error(`did not start: ${args.join(' ')}\n${out.slice(-2000)}`);
  const started = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; phases?: Start['phases'] })
    .find((l) => l.msg === 'started');
  return { ms: r0(ms), ...(started?.phases ? { phases: started.phases } : {}) };
}

async function main() {
  if (!existsSync(serverJs)) throw new Error('apps/server/dist/server.js is missing: npm run build first');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'numa-warm-start-'));
  const serverEnv = {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    // this checkout's web client, whichever build runs
    WEB_DIST: path.join(root, 'apps/web/dist'),
  };
  console.log(
    `Warm-start bench — PGlite (embedded), Node ${process.version}, ${os.cpus().length} CPUs, load ${loadAverage().join(' ')}\n`,
  );
  try {
    const cold = await timeStart([serverJs], serverEnv, root);
    console.log(`cold start (new database): ${cold.ms} ms`);
    const warm: Start[] = [];
    const bare: Start[] = [];
    // server and baseline in turns, so both see the same load
    for (let i = 0; i < WARM; i++) {
      warm.push(await timeStart([serverJs], serverEnv, root));
      bare.push(
        await timeStart(
          ['--input-type=module', '-e', bareScript],
          { PG_DIR: path.join(dataDir, 'pg') },
          path.join(root, 'apps/server'),
        ),
      );
      console.log(`warm start ${i + 1}: ${warm[i]!.ms} ms   (bare PGlite + Fastify: ${bare[i]!.ms} ms)`);
    }
    const warmMedian = r0(median(warm.map((s) => s.ms)));
    const bareMedian = r0(median(bare.map((s) => s.ms)));
    // each phase's median over the warm starts
    const names = warm[0]?.phases?.map((p) => p.phase) ?? [];
    const phases = names.map((phase) => ({
      phase,
      ms: r0(median(warm.map((s) => s.phases?.find((p) => p.phase === phase)?.ms ?? 0))),
    }));
    console.log(
      `\nwarm start median ${warmMedian} ms, bare PGlite + Fastify ${bareMedian} ms: ${(warmMedian / bareMedian).toFixed(2)}×`,
    );
    if (phases.length) {
      console.log('\nphases of a warm start (median ms; "configuration" includes Node starting):');
      for (const p of phases) console.log(`  ${p.phase.padEnd(16)} ${String(p.ms).padStart(6)}`);
      console.log('  (then the first /healthz answer)');
    }
    const results = path.join(root, 'bench', 'results');
    mkdirSync(results, { recursive: true });
    writeFileSync(
      path.join(results, 'warm-start-latest.json'),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          load: loadAverage(),
          database: 'pglite',
          server: path.relative(root, serverJs),
          coldMs: cold.ms,
          warmMs: warm.map((s) => s.ms),
          warmMedianMs: warmMedian,
          bareMs: bare.map((s) => s.ms),
          bareMedianMs: bareMedian,
          ratio: Math.round((warmMedian / bareMedian) * 100) / 100,
          phases,
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
