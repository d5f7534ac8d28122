import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CaptchaId } from '@numa/contract';
import { ApiError } from '../lib/errors';
import { invalid } from '../lib/route';
import { outboxRepo } from '../repositories/codes';

/**
 * Dev mode only (never registered when NODE_ENV=production): what the outside world would have
 * received, so tests and newcomers can sign in.
 */
export default async function devRoutes(app: FastifyInstance) {
  const { db, captcha } = app.deps;

  app.get('/dev/outbox', async (req) => {
    const parsed = z.object({ to: z.string().trim().min(3).max(254) }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const to = parsed.data.to.replace(/^\+/, '').replace(/[\s()-]/g, '').toLowerCase();
    return { messages: await outboxRepo.list(db, to) };
  });

  app.get('/dev/captcha', async (req) => {
    const parsed = z.object({ captchaId: CaptchaId }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const text = await captcha.answer(parsed.data.captchaId);
    if (text === null) throw new ApiError(100002);
    return { text };
  });
}
