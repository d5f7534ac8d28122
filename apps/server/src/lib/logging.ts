import type { FastifyServerOptions } from 'fastify';
import type { Env } from '../env';

/** Secrets that may ride in a URL's query (`api_key` of handler_api.php, the plans page's `token`), masked in logs. */
const secretParams = /([?&](?:api_key|token)=)[^&#]*/gi;

/** A URL as the logs show it: secret query values replaced by `[redacted]`. */
export const redactUrl = (url: string | undefined) => (url ? url.replace(secretParams, '$1[redacted]') : url);

/**
 * The server's logger options: the level, credentials redacted from anything logged with a request
 * (auth-token, Authorization with an API key, cookies), and URLs with their secret query values masked
 * (issue 21: a key never reaches the logs).
 */
export function loggerOptions(env: Pick<Env, 'LOG_LEVEL'>) {
  return {
    level: env.LOG_LEVEL,
    redact: ['req.headers["auth-token"]', 'req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req(req: {
        method: string;
        url: string;
        hostname?: string;
        ip?: string;
        socket?: { remotePort?: number };
      }) {
        return {
          method: req.method,
          url: redactUrl(req.url),
          host: req.hostname,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        };
      },
    },
  } satisfies FastifyServerOptions['logger'];
}
