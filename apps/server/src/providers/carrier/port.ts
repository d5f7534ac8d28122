/** An SMS handed to the carrier. Numbers are full numbers, digits only (country code first). */
export interface OutboundSms {
  /** Sender: one of our numbers, or null for system messages (codes) sent from the carrier's pool. */
  from: string | null;
  to: string;
  text: string;
}

/** The carrier: SMS/MMS in and out. The chats issue widens this port (MMS, inbound, status). */
export interface CarrierPort {
  readonly name: string;
  sendSms(message: OutboundSms): Promise<{ id: string }>;
  close?(): Promise<void>;
}

export class CarrierError extends Error {
  constructor(
    message: string,
    /** The carrier's own code, when it gave one. */
    readonly carrierCode?: string,
  ) {
    super(message);
    this.name = 'CarrierError';
  }
}
