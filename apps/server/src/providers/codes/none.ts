import { CodeSupplyError, type CodeSupplyPort } from './port';

/**
 * No outside code-number supplier (CODE_SUPPLIER=none; also production with it unset, which server.ts
 * refuses to start). Codes are then received only on our own carrier numbers in the pool (supplier
 * `carrier`), which no supplier is told about; with none there, a lock answers 500000. A pool row
 * that names this supplier is refused like a number the supplier does not sell.
 */
export class NoCodeSupply implements CodeSupplyPort {
  readonly name = 'none';
  readonly handsOutNumbers = false;
  locked(): Promise<never> {
    return Promise.reject(
      new CodeSupplyError('not_offered', 'no code supplier is configured (CODE_SUPPLIER=none)'),
    );
  }
  async finished(): Promise<void> {}
}
