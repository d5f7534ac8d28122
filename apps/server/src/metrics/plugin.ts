import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors';
import { isLoopbackHost } from '../lib/net';

export const metricsPath = '/metrics';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(headers: IncomingHttpHeaders, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return !!m && timingSafeEqual(digest(m[1]!), digest(token));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the separate metrics port listens (METRICS_PORT), once the app is ready; null without one. */
    metricsAddress: () => AddressInfo | null;
  }
}

/**
 * Metrics (issue 18 §8): the HTTP latency of every answered request (route pattern, method, status
 * class), and `/metrics` where it is configured — on the main port only with METRICS_TOKEN (a bearer
 * token; 401 without it), on METRICS_PORT (METRICS_HOST, loopback by default; with METRICS_TOKEN it
 * asks for the token too). Unconfigured, the main port has no /metrics: the 404 envelope of any
 * unknown path.
 */
export default fp(
  async (app) => {
    const { metrics, env } = app.deps;
    const token = env.METRICS_TOKEN;

    // a callback hook: no promise per request
    app.addHook('onResponse', (req, reply, done) => {
      metrics.http(req.routeOptions.url, req.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    if (token) {
      app.get(metricsPath, async (req, reply) => {
        if (!bearerMatches(req.headers, token)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new ApiError(100012, null, 'metrics token');
        }
        const text = await metrics.scrape();
        return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
      });
    }

    app.addHook('onClose', async () => metrics.close());

    let server: Server | null = null;
    app.decorate('metricsAddress', () => (server?.address() as AddressInfo | null) ?? null);
    if (env.METRICS_PORT === undefined) return;

    if (!token && !isLoopbackHost(env.METRICS_HOST))
      app.log.warn(
        { host: env.METRICS_HOST, port: env.METRICS_PORT },
        'the metrics port listens on a network address without METRICS_TOKEN: anyone who reaches it reads the metrics',
      );
    const port = env.METRICS_PORT;
    const srv = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      const send = (status: number, body: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'no-store',
          ...headers,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      };
      if (path !== metricsPath || (req.method !== 'GET' && req.method !== 'HEAD'))
        return send(404, 'Not found\n');
      if (token && !bearerMatches(req.headers, token))
        return send(401, 'Unauthorized\n', { 'www-authenticate': 'Bearer realm="metrics"' });
      metrics.scrape().then(
        (text) => send(200, text, { 'content-type': metrics.contentType }),
        (err: unknown) => {
          app.log.error({ err }, 'metrics scrape failed');
          send(500, 'Internal error\n');
        },
      );
    });
    srv.on('clientError', (_err, socket) => socket.destroy());
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(port, env.METRICS_HOST, () => {
          srv.off('error', reject);
          resolve();
        });
      });
      server = srv;
      app.log.info({ address: srv.address() }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      if (!server) return;
      server = null;
      await new Promise<void>((resolve) => {
        srv.close(() => resolve());
        srv.closeAllConnections();
      });
    });
  },
  { name: 'metrics', dependencies: ['errors'] },
);
