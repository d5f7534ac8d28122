import type { NumberCountry, NumberKind } from '@numa/contract';

/** Where numbers to rent come from (issue 11 part 1). The simulator is the default. */
export interface NumberQuery {
  code: NumberCountry;
  type: NumberKind;
  /** NANP area code (US, CA, toll-free); absent for GB and AU. */
  areaCode?: string | undefined;
}

/** A number the supply can give: full number (digits with the country code) and its parts. */
export interface SupplyNumber {
  telCode: string;
  /** national number, digits */
  phone: string;
  full: string;
}

export interface NumberSupplyPort {
  readonly name: string;
  /**
   * Candidate numbers of an area, best first. The caller removes those already held on the platform
   * (the supply does not know them). Throws `SupplyUnavailableError` when the provider cannot answer.
   */
  search(q: NumberQuery, limit: number): Promise<SupplyNumber[]>;
  /** Whether the supply offers this number for the query (a subscribe names a number it was shown). */
  offers(q: NumberQuery, full: string): Promise<boolean>;
  /** Takes the number from the provider for the platform (buying it); idempotent. */
  acquire(n: SupplyNumber): Promise<void>;
  /** Gives a number back to the provider; idempotent. */
  release(n: SupplyNumber): Promise<void>;
}

export class SupplyUnavailableError extends Error {
  constructor(message = 'the number supply is not available') {
    super(message);
    this.name = 'SupplyUnavailableError';
  }
}
