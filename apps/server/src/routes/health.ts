import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_req, reply) => {
    try {
      await app.deps.db.query('SELECT 1');
      return { status: 'ok', database: app.deps.db.kind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: app.deps.db.kind });
    }
  });
}
