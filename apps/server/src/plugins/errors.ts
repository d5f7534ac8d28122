import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { httpStatusOf, langFromCode, retmsg, type Lang } from '@numa/contract';
import { ApiError, isApiError } from '../lib/errors';

/** The envelope for a failure, in the caller's language (DESIGN.md: HTTP). */
export function sendError(req: FastifyRequest, reply: FastifyReply, err: ApiError, langOverride?: Lang) {
  const lang: Lang = langOverride ?? req.ctx?.lang ?? 'en';
  let msg = err.retmsg?.[lang] ?? retmsg(err.retcode, lang);
  if (err.retcode === 100001 && err.detail && !err.retmsg) msg = `${msg} (${err.detail})`;
  return reply
    .code(httpStatusOf(err.retcode))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff') // also on router errors, which skip the onSend hooks
    .type('application/json; charset=utf-8')
    .send({ retcode: err.retcode, retmsg: msg, data: err.data ?? null });
}

/**
 * The caller's language read from the raw request (for failures met before the context plugin ran):
 * `languagecode` in the query, else Accept-Language.
 */
export function rawLang(url: string | undefined, acceptLanguage: string | undefined): Lang {
  const m = /[?&]languagecode=([^&#]*)/i.exec(url ?? '');
  if (m) return langFromCode(m[1]);
  return /^zh\b/i.test(acceptLanguage ?? '') ? 'zh' : 'en';
}

/**
 * Errors the router meets before any hook runs (Fastify's `frameworkErrors`), in the envelope: a
 * malformed percent-escape in the path is 100001, a path segment longer than the router's limit
 * (a media id of 300 characters) names nothing that can exist, 100002.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, req, reply) => {
  const lang = rawLang(req.raw.url, req.headers['accept-language']);
  const code = (error as { code?: string }).code;
  const err =
    code === 'FST_ERR_BAD_URL'
      ? new ApiError(100001, null, 'url')
      : code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new ApiError(100002)
        : new ApiError(100000);
  if (err.retcode === 100000) req.log.error({ err: error }, 'router error');
  return sendError(req, reply, err, lang);
};

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
        const detail =
          e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'content-type'
            : e.code?.startsWith('FST_ERR_CTP')
              ? 'body'
              : undefined;
        return sendError(req, reply, new ApiError(100001, null, detail));
      }
      req.log.error({ err: error }, 'unhandled error');
      return sendError(req, reply, new ApiError(100000));
    });
  },
  { name: 'errors', dependencies: ['context'] },
);
