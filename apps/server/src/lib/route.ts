import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import {
  commonQueryKeys,
  platformKey,
  type EndpointDef,
  type ParsedInputOf,
  type RawOutputOf,
} from '@numa/contract';
import type { RequestContext } from '../types';
import type { Session } from '../services/sessions';
import { ApiError, isApiError } from './errors';
import { encodedOnce } from './compression';
import { JsonText } from './jsonText';

export interface Call<E extends EndpointDef> {
  req: FastifyRequest;
  reply: FastifyReply;
  input: ParsedInputOf<E>;
  ctx: RequestContext;
  /** Present whenever the endpoint's access is `session`; may be present for `optional`. */
  session: E['access'] extends 'session' ? Session : Session | null;
}

export interface RouteOptions {
  /** Per-route rate limit (@fastify/rate-limit), keyed by IP. */
  rateLimit?: { max: number; timeWindow: number | string };
  bodyLimit?: number;
  /** Overrides the call's entry in `callCosts`. */
  accountCost?: number;
}

/**
 * What one call costs from its account's bucket (services/limits.ts; issue 9, hole 1). Every call
 * made with a session spends points before its handler runs: 1, or its entry here when it weighs
 * more on the database (whole-list reads, pages of 500, uploads, transcription). Over the budget:
 * 100015 with `retryAfter` seconds and a Retry-After header. Areas add their heavy calls here.
 */
export const callCosts: Partial<Record<string, number>> = {
  getChatList: 5,
  getChatListByDate: 5,
  getDialogList: 3,
  getCloudAddressBook: 2,
  delSms: 2,
  delCloudAddressBook: 2,
  speechToText: 10,
  updateKYCInfo: 20,
  getPaymentList: 3,
  getBillList: 3,
  getNormalSmsList: 3,
  getCountryRates: 2,
};

/** The `retryAfter` seconds a 100015 refusal carries, if any. */
const retryAfterOf = (data: unknown): number | null => {
  const v = isPlainObject(data) ? data.retryAfter : undefined;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.ceil(v) : null;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/** Field paths of a zod failure, for the retmsg; messages go in `data.issues`. */
export function invalid(error: z.ZodError): ApiError {
  const issues = error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((k) => ({ path: [...i.path, k].join('.'), message: 'Unknown field' }))
      : [{ path: i.path.join('.'), message: i.message }],
  );
  const fields = [...new Set(issues.map((i) => i.path || 'body'))].slice(0, 5).join(', ');
  return new ApiError(100001, { issues }, fields);
}

/** The body of a POST/PUT: a JSON object whose `platform` is this host's brand. */
export function bodyWithoutPlatform(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (!isPlainObject(body)) throw new ApiError(100001, null, 'body');
  const { [platformKey]: platform, ...rest } = body;
  if (platform === undefined)
    throw new ApiError(100001, { issues: [{ path: 'platform', message: 'Required' }] }, 'platform');
  if (platform !== req.ctx.brand.id) throw new ApiError(100016);
  return rest;
}

function rawInput(req: FastifyRequest, method: EndpointDef['method']): Record<string, unknown> {
  if (method === 'POST' || method === 'PUT') return bodyWithoutPlatform(req);
  const query = { ...((req.query ?? {}) as Record<string, unknown>) };
  for (const k of commonQueryKeys) delete query[k];
  if (method === 'DELETE' && isPlainObject(req.body)) {
    const { [platformKey]: _platform, ...rest } = req.body;
    Object.assign(query, rest);
  }
  return query;
}

/**
 * Registers one endpoint of the contract: validates the input against its schema (strict), checks the
 * session when the endpoint needs one, runs the handler and wraps its result in the envelope.
 */
export function route<E extends EndpointDef>(
  app: FastifyInstance,
  ep: E,
  handler: (call: Call<E>) => Promise<RawOutputOf<E> | JsonText<RawOutputOf<E>>>,
  options: RouteOptions = {},
) {
  const { sessions, env, limits } = app.deps;
  const validateOutput = env.VALIDATE_RESPONSES ?? env.NODE_ENV === 'test';
  const cost = options.accountCost ?? callCosts[ep.name] ?? 1;
  const routeOptions: RouteShorthandOptions = {
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.rateLimit
      ? {
          config: {
            rateLimit: {
              ...options.rateLimit,
              max: Math.ceil(options.rateLimit.max * env.IP_RATE_LIMIT_FACTOR),
            },
          },
        }
      : {}),
  };
  app.route({
    method: ep.method,
    url: ep.path,
    ...routeOptions,
    handler: async (req, reply) => {
      const token = req.headers['auth-token'];
      const tokenStr = Array.isArray(token) ? token[0] : token;
      let session: Session | null = null;
      if (ep.access === 'session') session = await sessions.authenticate(tokenStr, req.ctx.brand.id);
      else if (ep.access === 'optional' && tokenStr) {
        session = await sessions.authenticate(tokenStr, req.ctx.brand.id).catch(() => null);
      }
      if (session) {
        const spent = await limits.call(session.accountId, cost);
        if (!spent.ok) {
          const retryAfter = Math.max(1, Math.ceil(spent.retryAfterMs / 1000));
          reply.header('retry-after', String(retryAfter));
          throw new ApiError(100015, { retryAfter }, 'too many calls from this account');
        }
      }
      let input: unknown = undefined;
      if (!ep.multipart) {
        const parsed = ep.input.safeParse(rawInput(req, ep.method));
        if (!parsed.success) throw invalid(parsed.error);
        input = parsed.data;
      }
      const data = await handler({
        req,
        reply,
        input: input as ParsedInputOf<E>,
        ctx: req.ctx,
        session: session as Call<E>['session'],
      }).catch((err: unknown) => {
        // a service's own budget refused it (e.g. verification-code locks): say when to come back
        const wait = isApiError(err) && err.retcode === 100015 ? retryAfterOf(err.data) : null;
        if (wait !== null) reply.header('retry-after', String(wait));
        throw err;
      });
      if (reply.sent) return reply;
      if (validateOutput) {
        const check = ep.output.safeParse(data instanceof JsonText ? JSON.parse(data.text) : data);
        if (!check.success) {
          req.log.error({ endpoint: ep.name, issues: check.error.issues }, 'response breaks the contract');
          throw new Error(`response of ${ep.name} breaks the contract`);
        }
      }
      reply.header('cache-control', 'no-store');
      if (data instanceof JsonText) {
        const body = `{"retcode":0,"retmsg":"","data":${data.text}}`;
        reply.type('application/json; charset=utf-8');
        const encoded = data.encoded && encodedOnce(data.encoded, body, req.headers['accept-encoding']);
        if (!encoded) return reply.send(body);
        // compressed as @fastify/compress would, once for this text (it leaves an encoded body alone)
        const vary = reply.getHeader('vary');
        return reply
          .header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding')
          .header('content-encoding', encoded.encoding)
          .send(encoded.bytes);
      }
      return reply.send({ retcode: 0, retmsg: '', data });
    },
  });
}
