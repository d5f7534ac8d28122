import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { constants, PartyNumber } from '@numa/contract';
import { ApiError } from '../lib/errors';
import { invalid } from '../lib/route';

/** A file as base64, or as a `data:<type>;base64,` URL; its type is read from the bytes. */
const Base64File = z
  .string()
  .max(Math.ceil((constants.mmsMaxBytes * 4) / 3) + 200)
  .transform((s, ctx) => {
    const b64 = s.replace(/^data:[\w.+/-]+;base64,/, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
      ctx.addIssue({ code: 'custom', message: 'Expected base64 file content' });
      return z.NEVER;
    }
    return new Uint8Array(Buffer.from(b64, 'base64'));
  });

const DevInbound = z.strictObject({
  /** The sender from outside: a number (with or without '+', spaces) or a sender id. */
  from: z
    .string()
    .transform((s) => s.replace(/[\s()+-]/g, ''))
    .pipe(PartyNumber),
  /** One of our numbers. */
  to: z
    .string()
    .transform((s) => s.replace(/\D/g, ''))
    .pipe(z.string().min(5).max(16)),
  text: z.string().max(constants.smsTextMax).default(''),
  media: z.array(Base64File).max(10).optional(),
  type: z.enum(['sms', 'mms', 'verificationCode', 'voicemail']).optional(),
});

/**
 * Dev mode only: `POST /dev/inbound {from, to, text, media?, type?}` injects a message from outside to
 * one of our numbers, as the carrier would bring it (stored, pushed to the holder's sockets).
 * Answers `{ smsId }`; 100002 when no account holds `to`.
 */
export default async function devInboundRoutes(app: FastifyInstance) {
  const { chats } = app.deps;
  app.post(
    '/dev/inbound',
    { bodyLimit: Math.ceil((constants.mmsMaxBytes * 4) / 3) + 64 * 1024 },
    async (req) => {
      const parsed = DevInbound.safeParse(req.body ?? {});
      if (!parsed.success) throw invalid(parsed.error);
      const { from, to, text, media = [], type } = parsed.data;
      if (!text.trim() && !media.length) throw new ApiError(100001, null, 'text or media is required');
      const carrierId = `DEV${randomUUID().replaceAll('-', '')}`;
      const { delivered } = await chats.sink.inbound({
        carrierId,
        from,
        to,
        text,
        media: media.map((bytes) => ({ bytes })),
        ...(type ? { type } : {}),
      });
      if (!delivered) throw new ApiError(100002, null, 'no account holds this number');
      return { smsId: `in:${carrierId}` };
    },
  );
}
