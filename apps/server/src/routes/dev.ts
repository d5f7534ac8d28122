import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CaptchaId } from '@numa/contract';
import { ApiError } from '../lib/errors';
import { invalid } from '../lib/route';
import { outboxRepo } from '../repositories/codes';
import devInboundRoutes from './dev-inbound';

/**
 * Dev mode only (never registered when NODE_ENV=production): what the outside world would have
 * received, so tests and newcomers can sign in.
 */
/** An e-mail as given (lower case); a phone number as its digits (`+1 (415) 555-0100` → `14155550100`). */
const addressParam = (to: string) => (to.includes('@') ? to.toLowerCase() : to.replace(/[^\d]/g, ''));

export default async function devRoutes(app: FastifyInstance) {
  const { db, captcha } = app.deps;

  // POST /dev/inbound: a message from outside to one of our numbers (chats)
  await app.register(devInboundRoutes);

  app.get('/dev/outbox', async (req) => {
    const parsed = z.object({ to: z.string().trim().min(3).max(254) }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const to = addressParam(parsed.data.to);
    return { messages: await outboxRepo.list(db, to) };
  });

  /** Forgets the code-sending limits of an address, as if the hour had passed (tests, demos). */
  app.delete('/dev/rate-limits', async (req) => {
    const parsed = z.object({ to: z.string().trim().min(3).max(254) }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const to = addressParam(parsed.data.to);
    const rows = await db.query(`DELETE FROM rate_events WHERE key LIKE $1 RETURNING id`, [`code:%:${to}`]);
    return { cleared: rows.length };
  });

  app.get('/dev/captcha', async (req) => {
    const parsed = z.object({ captchaId: CaptchaId }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const text = await captcha.answer(parsed.data.captchaId);
    if (text === null) throw new ApiError(100002);
    return { text };
  });
}
