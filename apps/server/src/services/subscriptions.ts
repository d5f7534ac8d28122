import { createRentalsEngine } from './rentals/engine';
import { numbersContext, type SubscriptionDeps } from './rentals/numbers/common';
import { createNumberCatalogue } from './rentals/numbers/catalogue';
import { createNumberLifecycle } from './rentals/numbers/lifecycle';
import { createPlanChange } from './rentals/numbers/planChange';
import { numberRentalPort } from './rentals/numbers/renewal';

export { addMonthsIso } from '../lib/dates';
export type { SubscriptionDeps } from './rentals/numbers/common';

/**
 * Number rental (issue 11), a kind of rental of services/rentals/ (issue 19): the New-number
 * catalogue (`numbers/catalogue.ts`), subscribe, unsubscribe, re-subscribe, reclaim and restore with
 * the history (`numbers/lifecycle.ts`), plan changes with proration (`numbers/planChange.ts`), and
 * renewals through the rentals engine (`numbers/renewal.ts` is the number's port: due on its payment
 * date, 7 days of grace). Every charge is a ledger row (bill type 5, numberRent) in the transaction
 * that changes the number.
 */
export function createSubscriptionService(d: SubscriptionDeps) {
  const ctx = numbersContext(d);
  const rentals =
    d.rentals ?? createRentalsEngine({ db: d.db, jobs: d.jobs, clock: d.clock, metrics: d.metrics });
  rentals.register(numberRentalPort(ctx), { maxAttempts: 5 });
  const catalogue = createNumberCatalogue(ctx);
  return {
    today: ctx.today,
    ...catalogue,
    ...createNumberLifecycle(ctx),
    ...createPlanChange(ctx, catalogue.toPlan),
    /** Runs the renewals due now, of every kind (the operator's "run renewals now"; tests after moving the clock). */
    runRenewals: () => rentals.runRenewals(),
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
