import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_req, reply) => {
    const { ok, database } = await app.deps.health.check();
    return ok ? { status: 'ok', database } : reply.code(503).send({ status: 'unavailable', database });
  });
}
