import fp from 'fastify-plugin';

/** One year: what HSTS preload lists ask for. */
const hstsMaxAge = 31_536_000;

/**
 * Headers on every answer (API envelopes, assets, media, the page, errors):
 * - `X-Content-Type-Options: nosniff`, so no answer is ever read as another type than it says;
 * - `Strict-Transport-Security` when the request came over TLS: `req.protocol` is 'https' only for a
 *   TLS socket or, with TRUST_PROXY, an `X-Forwarded-Proto: https` from the trusted proxy (without
 *   TRUST_PROXY that header is ignored, so a plain-HTTP client cannot make us send it). No
 *   includeSubDomains: brand hosts may share a parent domain with services we do not run.
 * Written by hand rather than with @fastify/helmet: helmet's CSP would replace the page's per-brand
 * policy and it sends HSTS on every answer, whatever the protocol; these are two headers.
 */
export default fp(
  async (app) => {
    app.addHook('onSend', async (req, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      if (req.protocol === 'https') reply.header('strict-transport-security', `max-age=${hstsMaxAge}`);
      return payload;
    });
  },
  { name: 'headers' },
);
