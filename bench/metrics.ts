/**
 * `node --import tsx bench/metrics.ts`: what the metrics (issue 18 §8) cost on the hot paths, in CPU
 * time (process.cpuUsage, which a busy machine disturbs far less than wall time), against a baseline
 * measured in the same run.
 *
 * (a) An HTTP request: a Fastify route answering a small JSON through inject, with the metrics
 *     plugin (its onResponse hook observing the latency histogram) against the same route without
 *     it; rounds interleaved, per-request CPU µs and the ratio.
 * (b) A delivery's instrumentation: what the send path adds per message (the socket event counter,
 *     the bill counted through the database facade's listener, the carrier hand-over's timer and
 *     counter), per-delivery CPU µs, next to a delivery's CPU time in `npm run bench` (about 3 ms).
 *
 * Results: bench/results/metrics.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { constants } from '@numa/contract';
import { loadEnv } from '../apps/server/src/env';
import { createMetrics } from '../apps/server/src/metrics';
import metricsPlugin from '../apps/server/src/metrics/plugin';
import type { CarrierPort } from '../apps/server/src/providers/carrier/port';
import { openDb } from './support';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);
const ROUNDS = 6;
const CALLS = 200_000;

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function main() {
  const { db, cleanup } = await openDb('metrics');
  const silent = { level: 'silent' } as const;
  const metrics = createMetrics({ db, log: Fastify({ logger: silent }).log });
  const env = loadEnv({ NODE_ENV: 'test' });

  async function server(withMetrics: boolean): Promise<FastifyInstance> {
    const app = Fastify({ logger: false });
    if (withMetrics) {
      app.decorate('deps', { metrics, env } as never);
      // the metrics plugin runs after the app's error plugin; here a stand-in of that name
      await app.register(fp(async () => {}, { name: 'errors' }));
      await app.register(metricsPlugin);
    }
    app.get('/web/x', async () => ({ retcode: 0, retmsg: '', data: { n: 1 } }));
    await app.ready();
    return app;
  }
  const bare = await server(false);
  const measured = await server(true);

  async function round(app: FastifyInstance): Promise<number> {
    const start = cpuMicros();
    for (let i = 0; i < REQUESTS; i++) await app.inject({ url: '/web/x' });
    return (cpuMicros() - start) / REQUESTS;
  }
  // warm both up, then interleave
  await round(bare);
  await round(measured);
  const bareUs: number[] = [];
  const metricsUs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    bareUs.push(await round(bare));
    metricsUs.push(await round(measured));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const http = { bareUs: median(bareUs), metricsUs: median(metricsUs) };

  // (b) a delivery's calls, as the send path makes them
  const port: CarrierPort = {
    name: 'bench',
    sendSms: async () => ({ id: 'x' }),
    sendMessage: async () => ({ id: 'x' }),
    lookupMessage: async () => [],
    attach() {},
  };
  const carrier = metrics.observeCarrier(port);
  const message = { from: '1', to: '2', text: 't', media: [], idempotencyKey: 'k' };
  async function delivery(n: number, instrumented: boolean): Promise<number> {
    const start = cpuMicros();
    for (let i = 0; i < n; i++) {
      if (instrumented) {
        metrics.socketEvent('sendMessage', 0);
        db.billsWritten([constants.billTypes.sms]);
        await carrier.sendMessage(message);
      } else {
        await port.sendMessage(message);
      }
    }
    return (cpuMicros() - start) / n;
  }
  await delivery(10_000, true);
  await delivery(10_000, false);
  const plainUs = await delivery(CALLS, false);
  const instrumentedUs = await delivery(CALLS, true);
  const send = { instrumentationUs: Math.max(0, instrumentedUs - plainUs) };

  const text = await metrics.scrape();
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const lines = [
    `Metrics cost (CPU time per operation), Node ${process.version}`,
    `HTTP request through inject: ${round2(http.bareUs)} µs bare, ${round2(http.metricsUs)} µs with the metrics hook: +${round2(http.metricsUs - http.bareUs)} µs (${round2(http.metricsUs / http.bareUs)}×)`,
    `a delivery's instrumentation (socket event, bill, carrier timer and counter): ${round2(send.instrumentationUs)} µs`,
    `scrape: ${text.length} bytes`,
  ];
  console.log(lines.join('\n'));
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'metrics.json'),
    JSON.stringify({ at: new Date().toISOString(), http, send, bareUs, metricsUs }, null, 2),
  );
  metrics.close();
  await bare.close();
  await measured.close();
  await cleanup();
}

await main();
