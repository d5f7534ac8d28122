import { CarrierError, type CarrierPort, type CarrierRecord } from './port';

/**
 * No carrier (production with CARRIER unset: the start is refused before this is reached, but an app
 * built without that check — tests, embedding — still never falls back to the simulator). Every send
 * fails at once as permanent; nothing comes in.
 */
export class NoCarrier implements CarrierPort {
  readonly name = 'none';
  sendSms(): Promise<{ id: string }> {
    return Promise.reject(new CarrierError('no carrier is configured (CARRIER)'));
  }
  sendMessage(): Promise<{ id: string }> {
    return Promise.reject(new CarrierError('no carrier is configured (CARRIER)'));
  }
  /** Nothing was ever handed to no carrier: it cannot have a message. */
  async lookupMessage(): Promise<CarrierRecord[]> {
    return [];
  }
  attach() {}
}
