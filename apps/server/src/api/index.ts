import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/errors';
import docsRoutes from './docs';
import handlerApiRoutes from './handlerApi';
import { buildOpenApi } from './openapi';
import { problemHandler, problemOf, sendProblem } from './problem';
import accountRoutes from './routes/account';
import codeRoutes from './routes/codes';
import messageRoutes from './routes/messages';
import numberRoutes from './routes/numbers';

/**
 * Programs' ways into Numa (issue 21): the REST API `/api/v1` (JSON, API keys, RFC 9457 problems,
 * per-key RateLimit fields; its OpenAPI 3.1 document and reference page) and the SMS-Activate protocol
 * at `/stubs/handler_api.php`. Registered in its own context: its error handler and 404 answer
 * problem details, and the web's envelope never shows here. API keys work here only.
 */
export default async function apiPlugin(app: FastifyInstance) {
  await app.register(
    async (v1) => {
      v1.setErrorHandler(problemHandler);
      v1.setNotFoundHandler((req, reply) =>
        sendProblem(
          reply,
          problemOf(new ApiError(100002, null, `no ${req.method} ${req.url.split('?')[0]}`)),
        ),
      );
      await v1.register(messageRoutes);
      await v1.register(numberRoutes);
      await v1.register(codeRoutes);
      await v1.register(accountRoutes);
      let doc: string | null = null;
      v1.get('/openapi.json', async (_req, reply) => {
        doc ??= JSON.stringify(await buildOpenApi({ title: 'Numa API', version: '1.0.0' }));
        return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(doc);
      });
      await v1.register(docsRoutes);
    },
    { prefix: '/api/v1' },
  );
  await app.register(handlerApiRoutes);
}
