import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type z } from 'zod';
import type { ApiScope } from '@numa/contract/developer';
import { ApiError, isApiError } from '../lib/errors';
import type { ApiPrincipal } from '../services/apiKeys';
import { keyPolicyName, type KeyVerdict } from '../services/apiLimits';
import { invalidInput, problemOf, sendProblem } from './problem';

/** One operation of /api/v1: how it is checked, run and documented (openapi.ts reads the registry). */
export interface ApiOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI form: /api/v1/messages/{id} */
  path: `/api/v1/${string}`;
  summary: string;
  description?: string;
  tag: string;
  /** Any one of these scopes lets the key call it; none: any key. */
  scopes: readonly ApiScope[];
  params?: P;
  query?: Q;
  body?: B;
  /** Headers it reads (documented). */
  headers?: z.ZodObject;
  /** What it answers with, by HTTP status (null: no body). */
  responses: Record<number, { description: string; schema: z.ZodType | null }>;
  /** Points of the key's (and account's) budget one call spends. */
  cost?: number;
}

/** Every operation registered, by method and path (the same in every app of the process). */
export const registry = new Map<string, ApiOperation<z.ZodType, z.ZodType, z.ZodType>>();

export interface ApiCall<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  req: FastifyRequest;
  reply: FastifyReply;
  principal: ApiPrincipal;
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
}

/** What a handler answers: a status and a body (null: none), and headers. */
export interface ApiAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** `Authorization: Bearer <key>` → the key, or undefined. */
export const bearerOf = (req: FastifyRequest) => {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
};

/** The IETF draft's RateLimit-Policy and RateLimit fields of a verdict. */
export function rateLimitHeaders(reply: FastifyReply, v: KeyVerdict) {
  reply.header('ratelimit-policy', `"${keyPolicyName}";q=${v.quota};w=${v.windowS}`);
  reply.header('ratelimit', `"${keyPolicyName}";r=${v.remaining};t=${v.resetS}`);
}

/**
 * The key of a call, checked before anything else: the key (cached), its budget of calls (per key,
 * RateLimit fields on every answer), then its account's budget (the same as the web page's). Throws
 * problems: 401 (with WWW-Authenticate), 429 (with Retry-After).
 */
export async function admit(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  token: string | undefined,
  cost: number,
) {
  const { apiKeys, apiLimits, limits } = app.deps;
  let principal: ApiPrincipal;
  try {
    principal = await apiKeys.authenticate(token, req.ctx.brand.id);
  } catch (err) {
    if (isApiError(err)) reply.header('www-authenticate', 'Bearer realm="numa", error="invalid_token"');
    throw err;
  }
  const spent = await apiLimits.spend(principal.keyId, cost);
  rateLimitHeaders(reply, spent);
  if (!spent.ok) {
    reply.header('retry-after', String(Math.max(1, spent.resetS)));
    throw new ApiError(
      100015,
      { retryAfter: spent.resetS },
      'this key made too many calls; see the RateLimit header',
    );
  }
  const account = await limits.call(principal.accountId, cost);
  if (!account.ok) {
    const wait = Math.max(1, Math.ceil(account.retryAfterMs / 1000));
    reply.header('retry-after', String(wait));
    throw new ApiError(100015, { retryAfter: wait }, 'this account made too many calls');
  }
  return principal;
}

/** Registers one operation (on the /api/v1 context): key, budgets, scope, input (strict), the handler, the answer. */
export function apiRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  app: FastifyInstance,
  op: ApiOperation<P, Q, B>,
  handler: (call: ApiCall<P, Q, B>) => Promise<ApiAnswer>,
) {
  registry.set(`${op.method} ${op.path}`, op as unknown as ApiOperation<z.ZodType, z.ZodType, z.ZodType>);
  // registered in the /api/v1 context (its prefix is added by Fastify)
  const url = op.path.slice('/api/v1'.length).replace(/\{(\w+)\}/g, ':$1') || '/';
  const parse = <T extends z.ZodType>(schema: T | undefined, value: unknown, where: string): z.output<T> => {
    if (!schema) return undefined as z.output<T>;
    const r = schema.safeParse(value ?? {});
    if (!r.success) throw invalidInput(r.error, where);
    return r.data;
  };
  app.route({
    method: op.method,
    url,
    handler: async (req, reply) => {
      const principal = await admit(app, req, reply, bearerOf(req), op.cost ?? 1);
      if (op.scopes.length && !op.scopes.some((s) => principal.scopes.has(s)))
        throw new ApiError(100003, null, `this key lacks the scope ${op.scopes.join(' or ')}`);
      const answer = await handler({
        req,
        reply,
        principal,
        params: parse(op.params, req.params, 'path'),
        query: parse(op.query, req.query, 'query'),
        body: parse(op.body, req.body, 'body'),
      });
      reply.header('cache-control', 'no-store');
      for (const [k, v] of Object.entries(answer.headers ?? {})) reply.header(k, v);
      if (answer.body === null) return reply.code(answer.status).send();
      return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
    },
  });
}

export { problemOf, sendProblem };
