import { createHash, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  CarrierError,
  type CarrierPort,
  type CarrierSink,
  type OutboundMessage,
  type OutboundSms,
} from './port';

/** Numbers whose national part is all zeros are unreachable, so the failure path can be exercised. */
const unreachable = (to: string) => /^\d{1,4}0{6,}$/.test(to);

/**
 * The default carrier. System messages (codes) are accepted and logged. A chat message to a number
 * held on the platform is delivered for real: it comes back in through the sink as an inbound
 * message, exactly as a real carrier would bring it to the recipient's number. A message to any other
 * number is accepted and confirmed. The message id is derived from the send's idempotency key, so a
 * resumed send after a crash delivers once.
 */
export class SimulatedCarrier implements CarrierPort {
  readonly name = 'simulator';
  private sink: CarrierSink | null = null;
  constructor(private readonly log?: FastifyBaseLogger) {}

  attach(sink: CarrierSink) {
    this.sink = sink;
  }

  async sendSms(message: OutboundSms) {
    if (unreachable(message.to)) throw new CarrierError(`unreachable destination ${message.to}`, '30003');
    const id = `SIM${randomUUID().replaceAll('-', '')}`;
    this.log?.info({ to: message.to, from: message.from, id }, 'sms simulated');
    return { id };
  }

  async sendMessage(message: OutboundMessage) {
    if (unreachable(message.to)) throw new CarrierError(`unreachable destination ${message.to}`, '30003');
    const id = `SIM${createHash('sha256').update(message.idempotencyKey).digest('hex').slice(0, 32)}`;
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
}
