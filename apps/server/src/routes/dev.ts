import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppId, CaptchaId, FullNumber } from '@numa/contract';
import { ApiError } from '../lib/errors';
import { invalid } from '../lib/route';
import { isLoopbackAddress } from '../lib/net';
import devStatusRoutes from './dev-status';
import devInboundRoutes from './dev-inbound';
import devCallRoutes from './dev-calls';

/** An e-mail as given (lower case); a phone number as its digits (`+1 (415) 555-0100` → `14155550100`). */
const addressParam = (to: string) => (to.includes('@') ? to.toLowerCase() : to.replace(/[^\d]/g, ''));

/**
 * Dev mode only (never registered when NODE_ENV=production): what the outside world would have
 * received, so tests and newcomers can sign in.
 *
 * They answer only requests that reach this process on its loopback interface: the TCP peer's own
 * address decides, never X-Forwarded-For (not even with TRUST_PROXY, where `req.ip` would believe
 * it). A request that carries a forwarding header came through a proxy, so its real sender is
 * unknown: refused too, even from a proxy on this machine. Anything refused gets the same 404
 * envelope as a server without /dev routes.
 */
export default async function devRoutes(app: FastifyInstance) {
  const { devTools, captcha } = app.deps;

  app.addHook('onRequest', async (req) => {
    const h = req.headers;
    const proxied =
      h['x-forwarded-for'] !== undefined || h.forwarded !== undefined || h['x-real-ip'] !== undefined;
    if (!isLoopbackAddress(req.raw.socket.remoteAddress) || proxied) {
      req.log.warn(
        { remote: req.raw.socket.remoteAddress, url: req.url },
        'a /dev route was asked from outside the loopback interface: refused',
      );
      throw new ApiError(100002);
    }
  });

  // POST /dev/inbound: a message from outside to one of our numbers (chats)
  await app.register(devInboundRoutes);
  await app.register(devCallRoutes);
  await app.register(devStatusRoutes);

  app.get('/dev/outbox', async (req) => {
    const parsed = z.object({ to: z.string().trim().min(3).max(254) }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const to = addressParam(parsed.data.to);
    return { messages: await devTools.outbox(to) };
  });

  /** Forgets the code-sending limits of an address, as if the hour had passed (tests, demos). */
  app.delete('/dev/rate-limits', async (req) => {
    const parsed = z.object({ to: z.string().trim().min(3).max(254) }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const to = addressParam(parsed.data.to);
    return { cleared: await devTools.clearCodeLimits(to) };
  });

  /**
   * `POST /dev/scheduled/run {fromNumber}`: the waiting scheduled messages from an own number become
   * due now and are sent (through the job's own claim and the send path), as if their time had come.
   */
  app.post('/dev/scheduled/run', async (req) => {
    const parsed = z.strictObject({ fromNumber: FullNumber }).safeParse(req.body ?? {});
    if (!parsed.success) throw invalid(parsed.error);
    return { sent: await app.deps.scheduled.runDueNow(parsed.data.fromNumber) };
  });

  /**
   * `POST /dev/code-sms {number, app, text, sender?}`: any text sent to a locked number as if by the
   * app (stored and charged like a real code SMS). Answers the receive result; 'unmatched' when the
   * number is not locked for the app.
   */
  app.post('/dev/code-sms', async (req) => {
    const parsed = z
      .strictObject({
        number: z
          .string()
          .transform((s) => s.replace(/\D/g, ''))
          .pipe(FullNumber),
        app: AppId,
        text: z.string().min(1).max(1600),
        sender: z.string().max(64).optional(),
      })
      .safeParse(req.body ?? {});
    if (!parsed.success) throw invalid(parsed.error);
    const { number, app: appId, text, sender } = parsed.data;
    return app.deps.codes.devSend({ number, app: appId, text, ...(sender ? { sender } : {}) });
  });

  app.get('/dev/captcha', async (req) => {
    const parsed = z.object({ captchaId: CaptchaId }).safeParse(req.query);
    if (!parsed.success) throw invalid(parsed.error);
    const text = await captcha.answer(parsed.data.captchaId);
    if (text === null) throw new ApiError(100002);
    return { text };
  });
}
