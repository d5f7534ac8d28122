import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors';
import { CarrierError } from '../providers/carrier/port';
import { TwilioCarrier, twilioPaths } from '../providers/carrier/twilio';

const emptyTwiml = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * The carrier's side of the server: Twilio's webhooks (incoming messages, status callbacks, incoming
 * calls with their status callbacks and voicemail recordings) and the
 * signed media links it fetches MMS files from. Registered only when the carrier is Twilio; nothing
 * here trusts a request before its signature is checked.
 */
export default async function carrierRoutes(app: FastifyInstance) {
  const { carrier, media } = app.deps;
  if (!(carrier instanceof TwilioCarrier)) return;
  const twilio = carrier;

  // Twilio posts application/x-www-form-urlencoded; these routes read it as a flat record.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  const verified = (req: FastifyRequest): Record<string, string> => {
    const params = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, string>;
    const header = req.headers['x-twilio-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!twilio.verifyWebhook(req.url, params, signature)) {
      req.log.warn({ url: req.url }, 'twilio webhook with a bad signature refused');
      throw new ApiError(100003, null, 'signature');
    }
    return params;
  };

  const refusal = (err: unknown) => {
    if (err instanceof CarrierError && err.permanent) return new ApiError(100001, null, err.message);
    return err;
  };

  app.post(twilioPaths.inbound, async (req, reply) => {
    const params = verified(req);
    try {
      const { delivered } = await twilio.inbound(params);
      if (!delivered) req.log.warn({ to: params.To }, 'twilio inbound for a number no account holds');
    } catch (err) {
      throw refusal(err);
    }
    return reply.type('text/xml').send(emptyTwiml);
  });

  app.post(twilioPaths.status, async (req, reply) => {
    const params = verified(req);
    try {
      await twilio.status(params);
    } catch (err) {
      throw refusal(err);
    }
    return reply.code(204).send();
  });

  const query = (req: FastifyRequest) =>
    Object.fromEntries(
      Object.entries((req.query ?? {}) as Record<string, unknown>).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    );

  // incoming calls: answered with TwiML (forward, voicemail or reject); their end and recordings
  app.post(twilioPaths.voice, async (req, reply) => {
    const params = verified(req);
    let twiml: string;
    try {
      twiml = await twilio.voice(params, query(req));
    } catch (err) {
      throw refusal(err);
    }
    return reply.type('text/xml').send(twiml);
  });

  app.post(twilioPaths.callStatus, async (req, reply) => {
    const params = verified(req);
    try {
      await twilio.callStatus(params);
    } catch (err) {
      throw refusal(err);
    }
    return reply.code(204).send();
  });

  app.post(twilioPaths.recording, async (req, reply) => {
    const params = verified(req);
    try {
      await twilio.recording(params, query(req));
    } catch (err) {
      throw refusal(err);
    }
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(
    `${twilioPaths.media}/:id`,
    async (req, reply) => {
      const { id } = req.params;
      if (!/^[A-Za-z0-9_-]{8,80}$/.test(id) || !twilio.verifyMediaLink(id, req.query.exp, req.query.sig))
        throw new ApiError(100003);
      const file = await media.readAny(id);
      if (!file) throw new ApiError(100002);
      return reply
        .type(file.mime)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(file.bytes);
    },
  );
}
