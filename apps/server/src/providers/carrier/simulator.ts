import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CarrierError, type CarrierPort, type OutboundSms } from './port';

/**
 * The default carrier. System messages (codes) are accepted and logged. Numbers whose national part is
 * all zeros are unreachable, so the failure path can be exercised.
 */
export class SimulatedCarrier implements CarrierPort {
  readonly name = 'simulator';
  constructor(private readonly log?: FastifyBaseLogger) {}

  async sendSms(message: OutboundSms) {
    if (/^\d{1,4}0{6,}$/.test(message.to)) throw new CarrierError(`unreachable destination ${message.to}`, '30003');
    const id = `SIM${randomUUID().replaceAll('-', '')}`;
    this.log?.info({ to: message.to, from: message.from, id }, 'sms simulated');
    return { id };
  }
}
