import { randomBytes } from 'node:crypto';
import { minor, toMinor, fromMinor, type Minor } from '@numa/contract';
import {
  ForgedNotification,
  ProviderUnavailable,
  type Checkout,
  type CheckoutOrder,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentProvider,
} from './port';

export interface PaypalConfig {
  /** Where the hosted form posts (PayPal's webscr). */
  formUrl: string;
  /** Where a notification (IPN) is posted back for verification (PayPal answers VERIFIED or INVALID). */
  verifyUrl: string;
  hostedButtonId: string;
  /** Our PayPal account: a notification paid to another receiver is refused. Optional. */
  receiverEmail: string | null;
}

/**
 * PayPal (spec 001 §4, §7): the hosted-form post (cmd, hosted_button_id, currency_code=USD, os0 the
 * amount, custom our transaction id, return, notify_url, cancel_return, rm=1, on0=Payment), and its
 * notification (IPN) verified by posting it back, unchanged, with cmd=_notify-validate to the
 * verification URL before anything is believed. Completed credits; Failed, Denied and Expired fail the
 * order; other statuses (Pending, Refunded …) are recorded by PayPal's own dashboard and ignored here.
 */
export class PaypalPayments implements PaymentProvider {
  readonly name = 'paypal';

  constructor(
    private readonly config: PaypalConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async createCheckout(order: CheckoutOrder): Promise<Checkout> {
    if (order.currency !== 'usd') throw new ProviderUnavailable('PayPal takes USD only');
    const ref = `pp${randomBytes(12).toString('hex')}`;
    const back = order.returnUrl ?? `${order.baseUrl}/account/credit`;
    const fields: Record<string, string> = {
      cmd: '_s-xclick',
      hosted_button_id: this.config.hostedButtonId,
      currency_code: 'USD',
      os0: fromMinor(order.amount).toFixed(2),
      custom: ref,
      return: back,
      notify_url: `${order.baseUrl}/pay/notify/paypal`,
      cancel_return: back,
      rm: '1',
      on0: 'Payment',
    };
    return { ref, paymentUrl: this.config.formUrl, form: { action: this.config.formUrl, fields } };
  }

  async parseNotification(w: IncomingWebhook): Promise<PaymentNotification | null> {
    let answer: string;
    try {
      const res = await this.fetchImpl(this.config.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'numa-ipn-verifier' },
        body: `cmd=_notify-validate&${w.rawBody}`,
        signal: AbortSignal.timeout(10_000),
      });
      answer = (await res.text()).trim();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    } catch (err) {
      // PayPal retries an unanswered notification: a 5xx here asks it to
      throw new ProviderUnavailable(`PayPal verification unreachable: ${(err as Error).message}`);
    }
    if (answer !== 'VERIFIED') throw new ForgedNotification(`PayPal says ${answer.slice(0, 20)}`);
    const p = Object.fromEntries(new URLSearchParams(w.rawBody));
    if (
      this.config.receiverEmail &&
      p.receiver_email?.toLowerCase() !== this.config.receiverEmail.toLowerCase()
    )
      throw new ForgedNotification('paid to another receiver');
    const status = p.payment_status ?? '';
    const outcome =
      status === 'Completed'
        ? 'paid'
        : ['Failed', 'Denied', 'Expired', 'Voided'].includes(status)
          ? 'failed'
          : null;
    if (!outcome || !p.txn_id || !p.custom) return null;
    const gross = Number(p.mc_gross);
    return {
      eventId: `${p.txn_id}:${status}`,
      ref: p.custom,
      outcome,
      amount: Number.isFinite(gross) && gross >= 0 ? toMinor(Math.round(gross * 100) / 100) : minor(-1),
      currency: (p.mc_currency ?? '').toLowerCase(),
      payload: p,
    };
  }

  async query(): Promise<'unknown'> {
    // IPN has no query; PayPal re-sends notifications until answered, and its dashboard can resend one
    return 'unknown';
  }

  async cancel(): Promise<void> {
    // a hosted form leaves nothing open at PayPal
  }

  async refund(_ref: string, _amount: Minor): Promise<void> {
    throw new ProviderUnavailable('refund the PayPal payment in the PayPal dashboard, then record it here');
  }
}
