import { lazy } from '../../lib/lazy';
import { MailDeliveryError, type MailMessage, type MailPort } from './port';

/** E-mail through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export class SmtpMail implements MailPort {
  readonly name = 'smtp';
  private readonly transport;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = lazy.nodemailer().createTransport(url);
  }

  async send(message: MailMessage) {
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      return { id: String(info.messageId) };
    } catch (err) {
      throw new MailDeliveryError((err as Error).message);
    }
  }

  async close() {
    this.transport.close();
  }
}
