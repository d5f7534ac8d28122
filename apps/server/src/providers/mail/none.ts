import { MailDeliveryError, type MailPort } from './port';

/**
 * No mail (MAIL=none; also production with it unset, which server.ts refuses to start). Sign-in
 * refuses a code to an e-mail address before anything is stored (100031, services/signin.ts); any
 * other mail (a renewal notice) fails and is logged.
 */
export class NoMail implements MailPort {
  readonly name = 'none';
  send(): Promise<{ id: string }> {
    return Promise.reject(new MailDeliveryError('no mail provider is configured (MAIL=none)'));
  }
}
