import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { MailDeliveryError, type MailMessage, type MailPort } from './port';

/**
 * The default mail provider: nothing leaves the machine. Messages are logged and kept in memory (the
 * dev outbox keeps what tests and newcomers read). Domains under `.invalid` bounce, as a real server
 * would refuse them, so the failure path can be exercised.
 */
export class SimulatedMail implements MailPort {
  readonly name = 'simulator';
  readonly sent: (MailMessage & { id: string; at: number })[] = [];
  constructor(private readonly log?: FastifyBaseLogger) {}

  async send(message: MailMessage) {
    if (/\.invalid$/i.test(message.to)) throw new MailDeliveryError(`550 no such domain for ${message.to}`);
    const id = randomUUID();
    this.sent.push({ ...message, id, at: Date.now() });
    if (this.sent.length > 1000) this.sent.shift();
    this.log?.info({ to: message.to, subject: message.subject, id }, 'mail simulated');
    return { id };
  }
}
