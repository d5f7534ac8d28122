export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Outbound e-mail (sign-in and verification codes). */
export interface MailPort {
  /** `none`: no mail on this deployment (MAIL=none): no code is offered by e-mail (100031). */
  readonly name: string;
  send(message: MailMessage): Promise<{ id: string }>;
  close?(): Promise<void>;
}

export class MailDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}
