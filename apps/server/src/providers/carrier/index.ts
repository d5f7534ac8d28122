import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import type { CarrierPort } from './port';
import { SimulatedCarrier } from './simulator';
import { TwilioCarrier } from './twilio';

/** The carrier CARRIER names; a missing Twilio setting stops the start with its name. */
export function createCarrier(env: Env, log: FastifyBaseLogger): CarrierPort {
  if (env.CARRIER === 'simulator') return new SimulatedCarrier(log);
  const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_WEBHOOK_BASE_URL'] as const).filter(
    (k) => !env[k],
  );
  if (missing.length) throw new Error(`CARRIER=twilio needs ${missing.join(', ')}`);
  return new TwilioCarrier(
    {
      accountSid: env.TWILIO_ACCOUNT_SID!,
      authToken: env.TWILIO_AUTH_TOKEN!,
      webhookBaseUrl: env.TWILIO_WEBHOOK_BASE_URL!,
      apiBaseUrl: env.TWILIO_API_BASE_URL,
      messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
    },
    log,
  );
}
