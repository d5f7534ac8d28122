import { SupplyUnavailableError, type NumberQuery, type NumberSupplyPort, type SupplyNumber } from './port';

/**
 * No number supply (NUMBER_SUPPLY=none): nothing to rent. Searches find no number (the New number
 * page's "no number available" notice), a subscribe is refused as for a number no longer offered
 * (300002), and a release cannot be done here: the error is logged, so the operator releases the
 * number at its provider by hand. Numbers already held keep working through the carrier.
 */
export class NoNumberSupply implements NumberSupplyPort {
  readonly name = 'none';
  search(_q: NumberQuery, _limit: number): Promise<SupplyNumber[]> {
    return Promise.resolve([]);
  }
  offers(): Promise<boolean> {
    return Promise.resolve(false);
  }
  acquire(): Promise<void> {
    return Promise.reject(new SupplyUnavailableError('no number supply is configured (NUMBER_SUPPLY=none)'));
  }
  release(n: SupplyNumber): Promise<void> {
    return Promise.reject(
      new SupplyUnavailableError(
        `no number supply is configured (NUMBER_SUPPLY=none): release ${n.full} at its provider by hand`,
      ),
    );
  }
}
