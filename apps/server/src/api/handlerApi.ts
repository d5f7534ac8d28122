import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { isApiError } from '../lib/errors';
import { rateLimitHeaders } from './route';

/** Parameters arrive in the query (GET, and most clients' POST) or a form body; the body wins. */
function paramsOf(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const take = (src: unknown) => {
    if (!src || typeof src !== 'object') return;
    for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
      const s = Array.isArray(v) ? v[0] : v;
      if (typeof s === 'string' || typeof s === 'number') out[k] = String(s).slice(0, 200);
    }
  };
  take(req.query);
  take(req.body);
  return out;
}

/**
 * `/stubs/handler_api.php`: the SMS-Activate protocol (issue 21; services/smsActivate.ts), GET or POST
 * (query or form), `api_key=` an API key with the codes scope. Plain-text answers in the protocol's
 * words (BAD_KEY for a key that is missing, wrong, revoked, of another brand or without the codes
 * scope), JSON for the list actions. The key's budget applies as on /api/v1 (RateLimit fields; past
 * it HTTP 429 TOO_MANY_REQUESTS with Retry-After).
 */
export default async function handlerApiRoutes(app: FastifyInstance) {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const { apiKeys, apiLimits, limits, smsActivate } = app.deps;

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const q = paramsOf(req);
    const plain = (status: number, body: string) =>
      reply.code(status).type('text/plain; charset=utf-8').send(body);
    let principal;
    try {
      principal = await apiKeys.authenticate(q.api_key, req.ctx.brand.id);
    } catch (err) {
      if (!isApiError(err)) throw err;
      return plain(200, err.retcode === 100008 || err.retcode === 200018 ? 'ACCOUNT_INACTIVE' : 'BAD_KEY');
    }
    if (!principal.scopes.has('codes')) return plain(200, 'BAD_KEY');
    const spent = await apiLimits.spend(principal.keyId, 1);
    rateLimitHeaders(reply, spent);
    const account = spent.ok ? await limits.call(principal.accountId, 1) : null;
    if (!spent.ok || !account?.ok) {
      const wait = !spent.ok
        ? spent.resetS
        : Math.ceil((account && !account.ok ? account.retryAfterMs : 1000) / 1000);
      reply.header('retry-after', String(Math.max(1, wait)));
      return plain(429, 'TOO_MANY_REQUESTS');
    }
    const answer = await smsActivate.handle(principal, q);
    if (answer.retryAfter) reply.header('retry-after', String(answer.retryAfter));
    if (typeof answer.body === 'string') return plain(answer.status, answer.body);
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  };

  app.get('/stubs/handler_api.php', handle);
  app.post('/stubs/handler_api.php', handle);
}
