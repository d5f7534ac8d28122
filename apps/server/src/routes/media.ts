import type { FastifyInstance } from 'fastify';
import { ApiError } from '../lib/errors';
import { MEDIA_COOKIE, readCookie } from '../lib/cookies';

/** GET /media/:id — a file for an account allowed to read it (token header or the media cookie). */
export default async function mediaRoutes(app: FastifyInstance) {
  const { sessions, media } = app.deps;
  app.get<{ Params: { id: string } }>('/media/:id', async (req, reply) => {
    const header = req.headers['auth-token'];
    const token =
      (Array.isArray(header) ? header[0] : header) ?? readCookie(req.headers.cookie, MEDIA_COOKIE);
    const session = await sessions.authenticate(token, req.ctx.brand.id);
    if (!/^[A-Za-z0-9_-]{8,80}$/.test(req.params.id)) throw new ApiError(100002);
    const file = await media.read(req.params.id, session.accountId);
    if (!file) throw new ApiError(100002);
    return reply
      .type(file.mime)
      .header('cache-control', 'private, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', 'inline')
      .send(file.bytes);
  });
}
