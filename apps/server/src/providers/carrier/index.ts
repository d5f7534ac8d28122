import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import type { Env } from '../../env';
import { simulatorsAllowed } from '../requirements';
import { NoCarrier } from './none';
import type { CarrierPort } from './port';
import { SimulatedCarrier } from './simulator';
import { TwilioCarrier } from './twilio';

/**
 * The carrier CARRIER names; a missing Twilio setting stops the start with its name. The simulator
 * only where simulators may run; otherwise (production without a carrier, which server.ts refuses to
 * start) none: every send fails.
 */
export function createCarrier(env: Env, db: Database, log: FastifyBaseLogger): CarrierPort {
  if (env.CARRIER === 'simulator' && simulatorsAllowed(env)) return new SimulatedCarrier(db, log);
  if (env.CARRIER !== 'twilio') return new NoCarrier();
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
