import type { Q } from '../db';

/** A chat message the carrier simulator accepted. */
export interface SimulatedCarrierMessage {
  sid: string;
  requestKey: string;
  acceptedAt: Date;
}

/** The carrier simulator's own message log (migration 080); only providers/carrier/simulator.ts calls these. */
export const carrierSimulatorRepo = {
  /** Records one acceptance (a hand-over), before the simulator answers it. */
  async accept(
    q: Q,
    m: { sid: string; requestKey: string; from: string; to: string; body: string; numMedia: number },
  ): Promise<void> {
    await q
      .insertInto('carrier_simulator_messages')
      .values({
        sid: m.sid,
        request_key: m.requestKey,
        from_number: m.from,
        to_number: m.to,
        body: m.body,
        num_media: m.numMedia,
      })
      .execute();
  },

  /** Every acceptance of the hand-overs made with this request key, oldest first. */
  async byRequest(q: Q, requestKey: string): Promise<SimulatedCarrierMessage[]> {
    return q
      .selectFrom('carrier_simulator_messages')
      .select(['sid', 'request_key as requestKey', 'accepted_at as acceptedAt'])
      .where('request_key', '=', requestKey)
      .orderBy('id')
      .execute();
  },
};
