import { twilioAccountNeeds } from '../carrier/requirements';
import type { ProviderKind } from '../kind';

/** Where rented numbers come from. */
export const numberSupplyKind: ProviderKind = {
  title: 'Number supply',
  selector: 'NUMBER_SUPPLY',
  does: 'finds, buys and releases the numbers users rent',
  simulator: 'simulator',
  real: [
    {
      value: 'twilio',
      needs: twilioAccountNeeds,
      check: (env) =>
        env.CARRIER === 'twilio'
          ? []
          : ['CARRIER=twilio: the numbers it buys send and receive through that carrier'],
    },
  ],
  off: {
    value: 'none',
    effect:
      'no numbers to rent: the New number page lists none and a subscribe answers 300002; numbers already held keep working and the operator can still assign one',
  },
};
