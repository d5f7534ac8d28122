import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../lib/errors';
import { invalid } from '../lib/route';

const DevStatus = z.strictObject({
  /** The carrier's id of an outgoing message (messages.carrier_id). */
  carrierId: z.string().min(1).max(64),
  status: z.enum(['sent', 'delivered', 'failed']),
  errorCode: z.string().max(20).optional(),
});

/**
 * Dev mode only: `POST /dev/status {carrierId, status}` brings a delivery report as the carrier would
 * (a status callback): 'delivered' marks the message delivered (the chat's "Delivered", the
 * message.status webhook), 'failed' fails and refunds it. The simulated carrier sends none itself.
 */
export default async function devStatusRoutes(app: FastifyInstance) {
  const { chats } = app.deps;
  app.post('/dev/status', async (req) => {
    const parsed = DevStatus.safeParse(req.body ?? {});
    if (!parsed.success) throw invalid(parsed.error);
    const { carrierId, status, errorCode } = parsed.data;
    if (!/^[A-Za-z0-9_.:-]+$/.test(carrierId)) throw new ApiError(100001, null, 'carrierId');
    await chats.sink.status({ carrierId, status, ...(errorCode ? { errorCode } : {}) });
    return { ok: true };
  });
}
