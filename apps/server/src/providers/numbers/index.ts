import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import { simulatorsAllowed } from '../requirements';
import { NoNumberSupply } from './none';
import type { NumberSupplyPort } from './port';
import { SimulatedNumberSupply } from './simulator';
import { TwilioNumberSupply } from './twilio';

export type { NumberSupplyPort, NumberQuery, SupplyNumber } from './port';
export { SupplyUnavailableError } from './port';
export { SimulatedNumberSupply } from './simulator';
export { TwilioNumberSupply } from './twilio';
export { NoNumberSupply } from './none';

/**
 * The number supply NUMBER_SUPPLY names: the simulator (where simulators may run), Twilio, or none
 * (also production with it unset, which server.ts refuses to start). Twilio's numbers send their
 * messages and calls to the Twilio carrier's webhooks, so it needs CARRIER=twilio and its settings;
 * a missing one stops the start with its name.
 */
export function createNumberSupply(
  env: Pick<
    Env,
    | 'NODE_ENV'
    | 'DEMO_MODE'
    | 'NUMBER_SUPPLY'
    | 'CARRIER'
    | 'TWILIO_ACCOUNT_SID'
    | 'TWILIO_AUTH_TOKEN'
    | 'TWILIO_WEBHOOK_BASE_URL'
    | 'TWILIO_API_BASE_URL'
    | 'TWILIO_ADDRESS_SID'
    | 'TWILIO_BUNDLE_SID'
  >,
  log?: FastifyBaseLogger,
): NumberSupplyPort {
  if (env.NUMBER_SUPPLY === 'simulator' && simulatorsAllowed(env)) return new SimulatedNumberSupply();
  if (env.NUMBER_SUPPLY !== 'twilio') return new NoNumberSupply();
  if (env.CARRIER !== 'twilio') throw new Error('NUMBER_SUPPLY=twilio needs CARRIER=twilio');
  const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_WEBHOOK_BASE_URL'] as const).filter(
    (k) => !env[k],
  );
  if (missing.length) throw new Error(`NUMBER_SUPPLY=twilio needs ${missing.join(', ')}`);
  return new TwilioNumberSupply(
    {
      accountSid: env.TWILIO_ACCOUNT_SID!,
      authToken: env.TWILIO_AUTH_TOKEN!,
      webhookBaseUrl: env.TWILIO_WEBHOOK_BASE_URL!,
      apiBaseUrl: env.TWILIO_API_BASE_URL,
      addressSid: env.TWILIO_ADDRESS_SID,
      bundleSid: env.TWILIO_BUNDLE_SID,
    },
    log,
  );
}
