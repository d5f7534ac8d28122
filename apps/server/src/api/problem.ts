import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { httpStatusOf, retmsg } from '@numa/contract';
import type { Problem } from '@numa/contract/apiV1';
import { ApiError, isApiError } from '../lib/errors';

/** HTTP reason phrases of the statuses /api/v1 answers with. */
const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** Titles that speak of keys where the web page's words speak of sessions. */
const apiTitles: Partial<Record<number, string>> = {
  100012: 'The API key is missing, wrong or revoked.',
  100008: 'The account is suspended.',
  200018: 'The account was deleted.',
};

/**
 * A failure of /api/v1 as RFC 9457 problem details: `type` names our retcode (`urn:numa:retcode:N`,
 * a URI the document explains), `title` is its words in English, `detail` what exactly went wrong,
 * `code` the retcode itself, `errors` the fields that failed validation.
 */
export function problemOf(err: ApiError, statusOverride?: number): Problem {
  const status = statusOverride ?? err.statusCode ?? httpStatusOf(err.retcode);
  const data = err.data as { issues?: { path: string; message: string }[] } | null;
  return {
    type: `urn:numa:retcode:${err.retcode}`,
    title:
      err.retmsg?.en ?? apiTitles[err.retcode] ?? retmsg(err.retcode, 'en') ?? reasons[status] ?? 'Error',
    status,
    ...(err.detail ? { detail: err.detail } : {}),
    code: err.retcode,
    ...(data?.issues?.length ? { errors: data.issues } : {}),
  };
}

export function sendProblem(reply: FastifyReply, problem: Problem) {
  return reply
    .code(problem.status)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .type('application/problem+json; charset=utf-8')
    .send(problem);
}

/** A zod failure as 100001 with the failing fields. */
export function invalidInput(error: z.ZodError, where: string): ApiError {
  const issues = error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((k) => ({ path: [where, ...i.path, k].join('.'), message: 'Unknown field' }))
      : [{ path: [where, ...i.path].join('.'), message: i.message }],
  );
  return new ApiError(
    100001,
    { issues },
    issues
      .map((i) => `${i.path}: ${i.message}`)
      .slice(0, 3)
      .join('; '),
  );
}

/** The error handler of /api/v1: our errors keep their retcode, Fastify's 4xx are 100001/100005, the rest 500 without a trace. */
export function problemHandler(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  if (isApiError(error)) return sendProblem(reply, problemOf(error));
  const e = error as { statusCode?: number; code?: string; message?: string };
  const status = e.statusCode ?? 500;
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return sendProblem(reply, problemOf(new ApiError(100005), 413));
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return sendProblem(
      reply,
      problemOf(new ApiError(100001, null, 'send JSON (content-type: application/json)'), 415),
    );
  if (status >= 400 && status < 500)
    return sendProblem(reply, problemOf(new ApiError(100001, null, 'the request body is not valid JSON')));
  req.log.error({ err: error }, 'unhandled error (api)');
  return sendProblem(reply, problemOf(new ApiError(100000)));
}
