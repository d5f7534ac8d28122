import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import type { CodeSupplyPort } from './port';
import { SimulatedCodeSupply } from './simulator';
import { SmsActivateSupply } from './smsActivate';

/** The code-number supplier CODE_SUPPLIER names; a missing setting stops the start with its name. */
export function createCodeSupply(env: Env, log?: FastifyBaseLogger): CodeSupplyPort {
  if (env.CODE_SUPPLIER === 'simulator')
    return new SimulatedCodeSupply({
      sendAfterMs: env.CODE_SIM_SEND_AFTER_MS,
      failRate: env.CODE_SIM_FAIL_RATE,
    });
  if (!env.CODE_SUPPLIER_API_KEY) throw new Error('CODE_SUPPLIER=smsactivate needs CODE_SUPPLIER_API_KEY');
  return new SmsActivateSupply(
    {
      url: env.CODE_SUPPLIER_URL,
      apiKey: env.CODE_SUPPLIER_API_KEY,
      pollEveryMs: env.CODE_SUPPLIER_POLL_MS,
      services: env.CODE_SUPPLIER_SERVICES,
      countries: env.CODE_SUPPLIER_COUNTRIES,
    },
    log,
  );
}
