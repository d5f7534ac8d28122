import type { NumberSupplyPort } from './port';
import { SimulatedNumberSupply } from './simulator';

export type { NumberSupplyPort, NumberQuery, SupplyNumber } from './port';
export { SupplyUnavailableError } from './port';
export { SimulatedNumberSupply } from './simulator';

/** The number supply by configuration: the simulator (the only adapter so far). */
export function createNumberSupply(): NumberSupplyPort {
  return new SimulatedNumberSupply();
}
