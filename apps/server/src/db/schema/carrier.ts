import type { Generated } from 'kysely';

/** Migration 080: the carrier simulator's log of the chat messages it accepted (providers/carrier/simulator.ts). */
export interface CarrierTables {
  carrier_simulator_messages: {
    id: Generated<number>;
    /** the simulator's message id (SIM…) */
    sid: string;
    /** the hand-over's request key (OutboundMessage.idempotencyKey) */
    request_key: string;
    from_number: string;
    to_number: string;
    body: Generated<string>;
    num_media: Generated<number>;
    accepted_at: Generated<Date>;
  };
}
