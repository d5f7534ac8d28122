import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpStatusOf, retmsg, type Lang } from '@numa/contract';
import { ApiError, isApiError } from '../lib/errors';

/** The envelope for a failure, in the caller's language (DESIGN.md: HTTP). */
export function sendError(req: FastifyRequest, reply: FastifyReply, err: ApiError) {
  const lang: Lang = req.ctx?.lang ?? 'en';
  let msg = err.retmsg?.[lang] ?? retmsg(err.retcode, lang);
  if (err.retcode === 100001 && err.detail && !err.retmsg) msg = `${msg} (${err.detail})`;
  return reply
    .code(httpStatusOf(err.retcode))
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ retcode: err.retcode, retmsg: msg, data: err.data ?? null });
}

/**
 * One error handler for everything: contract errors keep their retcode; Fastify's own 4xx (bad JSON,
 * body too large, wrong content type) become 100001 / 100005; anything else is logged and answered
 * as 100000 without a stack trace.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: unknown, req, reply) => {
      if (isApiError(error)) return sendError(req, reply, error);
      const e = error as { statusCode?: number; code?: string; message?: string };
      const status = e.statusCode ?? 500;
      if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE') {
        return sendError(req, reply, new ApiError(100005));
      }
      if (status === 429) return sendError(req, reply, new ApiError(100015));
      if (status >= 400 && status < 500) {
        const detail = e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : e.code?.startsWith('FST_ERR_CTP') ? 'body' : undefined;
        return sendError(req, reply, new ApiError(100001, null, detail));
      }
      req.log.error({ err: error }, 'unhandled error');
      return sendError(req, reply, new ApiError(100000));
    });
  },
  { name: 'errors', dependencies: ['context'] },
);
