import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../env';
import { simulatorsAllowed } from '../requirements';
import { FiveSimSupply } from './fiveSim';
import { NoCodeSupply } from './none';
import type { CodeSupplyPort } from './port';
import { checkRates } from './price';
import { SimulatedCodeSupply } from './simulator';
import { SmsActivateSupply } from './smsActivate';

/** A real supplier by name, with its settings; a missing setting stops the start with its name. */
function realSupplier(name: 'smsactivate' | '5sim', env: Env, log?: FastifyBaseLogger): CodeSupplyPort {
  if (name === 'smsactivate') {
    if (!env.CODE_SUPPLIER_API_KEY) throw new Error('the smsactivate supplier needs CODE_SUPPLIER_API_KEY');
    const priceRates = checkRates('CODE_SUPPLIER_PRICE_RATES', env.CODE_SUPPLIER_PRICE_RATES);
    if (!Object.keys(priceRates).length)
      throw new Error(
        'the smsactivate supplier needs CODE_SUPPLIER_PRICE_RATES (e.g. usd=90): numbers are never bought above the user’s fee',
      );
    return new SmsActivateSupply(
      {
        url: env.CODE_SUPPLIER_URL,
        apiKey: env.CODE_SUPPLIER_API_KEY,
        pollEveryMs: env.CODE_SUPPLIER_POLL_MS,
        services: env.CODE_SUPPLIER_SERVICES,
        countries: env.CODE_SUPPLIER_COUNTRIES,
        priceRates,
      },
      log,
    );
  }
  if (!env.FIVESIM_API_KEY) throw new Error('the 5sim supplier needs FIVESIM_API_KEY');
  const priceRates = checkRates('FIVESIM_PRICE_RATES', env.FIVESIM_PRICE_RATES);
  if (!Object.keys(priceRates).length)
    throw new Error(
      'the 5sim supplier needs FIVESIM_PRICE_RATES (e.g. usd=90): numbers are never bought above the user’s fee',
    );
  return new FiveSimSupply(
    {
      url: env.FIVESIM_URL,
      token: env.FIVESIM_API_KEY,
      pollEveryMs: env.CODE_SUPPLIER_POLL_MS,
      products: env.FIVESIM_PRODUCTS,
      countries: env.FIVESIM_COUNTRIES,
      operator: env.FIVESIM_OPERATOR,
      priceRates,
    },
    log,
  );
}

/**
 * The code-number suppliers in their configured order: the simulator alone (only where simulators may
 * run), none (`CODE_SUPPLIER=none`; also production with it unset, which server.ts refuses to start:
 * our own carrier numbers of the pool only), or CODE_SUPPLIER then CODE_SUPPLIER_FAILOVER (the codes
 * service asks them through `services/codes/suppliers.ts`).
 */
export function createCodeSuppliers(env: Env, log?: FastifyBaseLogger): CodeSupplyPort[] {
  if (env.CODE_SUPPLIER === 'simulator' && simulatorsAllowed(env))
    return [
      new SimulatedCodeSupply({
        sendAfterMs: env.CODE_SIM_SEND_AFTER_MS,
        failRate: env.CODE_SIM_FAIL_RATE,
      }),
    ];
  if (env.CODE_SUPPLIER !== 'smsactivate' && env.CODE_SUPPLIER !== '5sim') return [new NoCodeSupply()];
  const names = [env.CODE_SUPPLIER, ...env.CODE_SUPPLIER_FAILOVER];
  return [...new Set(names)].map((n) => realSupplier(n, env, log));
}
