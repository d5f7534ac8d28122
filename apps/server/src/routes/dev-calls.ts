import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../lib/errors';
import { invalid } from '../lib/route';

const digits = z
  .string()
  .transform((s) => s.replace(/\D/g, ''))
  .pipe(z.string().min(5).max(16));

const DevInboundCall = z.strictObject({
  from: digits,
  /** One of our numbers. */
  to: digits,
  /** How long the caller stayed: talking when forwarded and answered, speaking when recorded. */
  seconds: z
    .number()
    .int()
    .min(0)
    .max(4 * 3600),
  /** A forwarded call was picked up on the account's phone. */
  answered: z.boolean().default(true),
  /** What the caller says when the call goes to voicemail (the recording carries it for speech-to-text). */
  message: z.string().max(1000).optional(),
});

/**
 * Dev mode only: `POST /dev/inbound-call {from, to, seconds, answered, message?}` plays the simulated carrier's
 * incoming call to one of our numbers: forwarded, recorded as a voicemail (delivered to the chat) or
 * missed, by the holder's settings, then recorded and charged. Answers the call record; 100002 when
 * no account holds `to`.
 */
export default async function devCallRoutes(app: FastifyInstance) {
  const { calls } = app.deps;
  app.post('/dev/inbound-call', async (req) => {
    const parsed = DevInboundCall.safeParse(req.body ?? {});
    if (!parsed.success) throw invalid(parsed.error);
    const call = await calls.inbound({
      carrierId: `DEVCALL${randomUUID().replaceAll('-', '')}`,
      ...parsed.data,
    });
    if (!call) throw new ApiError(100002, null, 'no account holds this number');
    return { call };
  });
}
