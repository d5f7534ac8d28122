import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db';
import { carrierSimulatorRepo } from '../../repositories/carrierSimulator';
import {
  CarrierError,
  type CarrierPort,
  type CarrierRecord,
  type CarrierSink,
  type HandOverLookup,
  type OutboundMessage,
  type OutboundSms,
} from './port';

/** Numbers whose national part is all zeros are unreachable, so the failure path can be exercised. */
const unreachable = (to: string) => /^\d{1,4}0{6,}$/.test(to);

const newSid = () => `SIM${randomUUID().replaceAll('-', '')}`;

/**
 * The default carrier. System messages (codes) are accepted and logged. A chat message is accepted
 * the way a real carrier accepts it: recorded in the simulator's own message log (its table,
 * migration 080) under a new message id before the hand-over is answered, with no idempotency of its
 * own (a message handed over twice is two texts, as at Twilio). A message to a number held on the
 * platform is then delivered for real: it comes back in through the sink as an inbound message, as a
 * real carrier would bring it to the recipient's number; one to any other number is accepted and
 * confirmed. Its log outlives our process, so after a kill -9 between its acceptance and our record
 * of it the lookup still answers truthfully (by the hand-over's request key, which it keeps).
 */
export class SimulatedCarrier implements CarrierPort {
  readonly name = 'simulator';
  private sink: CarrierSink | null = null;
  constructor(
    private readonly db: Database,
    private readonly log?: FastifyBaseLogger,
  ) {}

  attach(sink: CarrierSink) {
    this.sink = sink;
  }

  async sendSms(message: OutboundSms) {
    if (unreachable(message.to)) throw new CarrierError(`unreachable destination ${message.to}`, '30003');
    const id = newSid();
    // a text a job may try again is kept, as a chat message is (sign-in codes are sent once, inline)
    if (message.idempotencyKey)
      await carrierSimulatorRepo.accept(this.db.q, {
        sid: id,
        requestKey: message.idempotencyKey,
        from: message.from ?? '',
        to: message.to,
        body: message.text,
        numMedia: 0,
      });
    this.log?.info({ to: message.to, from: message.from, id }, 'sms simulated');
    return { id };
  }

  async sendMessage(message: OutboundMessage) {
    if (unreachable(message.to)) throw new CarrierError(`unreachable destination ${message.to}`, '30003');
    const id = newSid();
    await carrierSimulatorRepo.accept(this.db.q, {
      sid: id,
      requestKey: message.idempotencyKey,
      from: message.from,
      to: message.to,
      body: message.text,
      numMedia: message.media.length,
    });
    const { delivered } = this.sink
      ? await this.sink.inbound({
          carrierId: id,
          from: message.from,
          to: message.to,
          text: message.text,
          media: message.media.map((m) => ({ mediaId: m.id })),
        })
      : { delivered: false };
    this.log?.info({ to: message.to, from: message.from, id, onPlatform: delivered }, 'message simulated');
    return { id };
  }

  async lookupMessage(message: HandOverLookup): Promise<CarrierRecord[]> {
    const rows = await carrierSimulatorRepo.byRequest(this.db.q, message.idempotencyKey);
    return rows.map((r) => ({ id: r.sid, at: r.acceptedAt }));
  }
}
