import { codesContext, type CodesDeps } from './context';
import { createLocking } from './lock';
import { createOffer } from './offer';
import { createReceiving } from './receive';
import { createSending } from './send';
import { createSupplierLink } from './supplier';
import { createRentalsEngine, type RentalsEngine } from '../rentals/engine';
import { createKeeping } from '../rentals/codeNumbers/keep';

export { detectApp, extractCode } from './parse';
export { carrierPool, formatPhone, type InboundCodeSms, type ReceiveResult } from './context';

/**
 * Verification codes (issue 12; spec 001 §2, §4 Receive-code flow, §7), one file per capability:
 * - offer.ts: the numbers offered for an app and the prices;
 * - lock.ts: a number locked for an app for the polling window, its poll, its expiry;
 * - receive.ts: a code SMS on a locked number stored and charged once with its bill (bill type 6);
 * - supplier.ts: the lock's supplier told and polled (the simulator's app, a real supplier);
 * - send.ts: a text sent from a verification number through the carrier;
 * - a number kept by the month is a rental: services/rentals/codeNumbers (subscribe, renewals, history).
 * Nothing is charged without a code; the number stays the account's for a month after its first code.
 */
export function createCodesService(deps: CodesDeps & { rentals?: RentalsEngine }) {
  const ctx = codesContext(deps);
  const rentals = deps.rentals ?? createRentalsEngine(deps);
  const receiving = createReceiving(ctx);
  const supplier = createSupplierLink(ctx, (m) => receiving.receive(m));
  const locking = createLocking(ctx, supplier);
  const sending = createSending(ctx);
  const keeping = createKeeping(ctx, rentals);
  return {
    supplier: deps.supply.name,
    ...createOffer(ctx),
    ...locking,
    ...receiving,
    ...sending,
    ...keeping,
  };
}

export type CodesService = ReturnType<typeof createCodesService>;
