import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { fromMinor, minor, type Minor } from '@numa/contract';
import type { Database } from '../../db';
import type { Clock } from '../../lib/clock';
import { sandboxRepo } from '../../repositories/payments';
import {
  ForgedNotification,
  ProviderUnavailable,
  type Checkout,
  type CheckoutOrder,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentOutcome,
  type PaymentProvider,
  type RefundResult,
} from './port';

/** The header the sandbox signs its notifications with: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const sandboxSignatureHeader = 'x-sandbox-signature';
/** A signature older or newer than this is refused (a replayed capture cannot be used later). */
const toleranceSeconds = 300;

const eventId = z.string().min(1).max(100);
const ref = z.string().min(1).max(100);
/** ten-thousandths of `currency` */
const amount = z.number().int().nonnegative();
const currency = z.string().min(3).max(8);

/** A checkout's outcome, as the sandbox posts it (its own documented shape, like a real provider's). */
export const SandboxCheckoutEvent = z.strictObject({
  id: eventId,
  type: z.enum(['checkout.paid', 'checkout.failed']),
  created: z.number().int(),
  data: z.strictObject({ ref, amount, currency }),
});
export type SandboxCheckoutEvent = z.infer<typeof SandboxCheckoutEvent>;

/**
 * The notifications the sandbox posts: a checkout's outcome, a refund of a paid checkout (its status
 * pending, succeeded, failed or canceled) and a dispute of one (opened, won, lost).
 */
export const SandboxEvent = z.union([
  SandboxCheckoutEvent,
  z.strictObject({
    id: eventId,
    type: z.literal('refund.updated'),
    created: z.number().int(),
    data: z.strictObject({
      ref,
      refundId: z.string().min(1).max(100),
      status: z.enum(['pending', 'succeeded', 'failed', 'canceled']),
      amount,
      currency,
    }),
  }),
  z.strictObject({
    id: eventId,
    type: z.literal('dispute.updated'),
    created: z.number().int(),
    data: z.strictObject({
      ref,
      disputeId: z.string().min(1).max(100),
      status: z.enum(['opened', 'won', 'lost']),
      amount,
      currency,
    }),
  }),
]);
export type SandboxEvent = z.infer<typeof SandboxEvent>;

/** Signs a body as the sandbox does (tests forge and replay with it). */
export function signSandbox(secret: string, body: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** Posts a notification to a URL of this server (app.ts: through app.inject, as a provider would over HTTP). */
export type Deliver = (
  url: string,
  body: string,
  headers: Record<string, string>,
) => Promise<{ status: number }>;

export type SandboxAction = 'pay' | 'fail' | 'cancel' | 'resend' | 'sendExact' | 'sendWrong';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The sandbox payment provider (the default): our own provider page at `paymentUrl` (a small
 * server-rendered page, not part of the SPA) with Pay, Fail and Cancel; Pay posts a notification to
 * our webhook signed with PAYMENT_SANDBOX_SECRET, exactly as a real provider would, and a paid page
 * offers "Send the notification again", which replays the same notification (same event id). Crypto
 * checkouts offer "send exactly this amount" and a wrong amount. It keeps its own records (table
 * payment_sandbox_checkouts), so the operator's re-query asks it like any provider.
 */
export class SandboxPayments implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly deliver: Deliver,
  ) {}

  async createCheckout(order: CheckoutOrder): Promise<Checkout> {
    const ref = `sbx_${randomBytes(12).toString('hex')}`;
    await sandboxRepo.create(this.db.q, {
      ref,
      brand: order.brand,
      description: order.description,
      amount: order.amount,
      currency: order.currency,
      notifyUrl: `${order.baseUrl}/pay/notify/sandbox`,
      crypto: order.crypto ?? null,
      returnUrl: order.returnUrl,
    });
    return { ref, paymentUrl: `${order.baseUrl}/pay/sandbox/${ref}` };
  }

  async parseNotification(w: IncomingWebhook): Promise<PaymentNotification | null> {
    const header = w.headers[sandboxSignatureHeader];
    const sig = Array.isArray(header) ? header[0] : header;
    const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(sig ?? '');
    if (!m) throw new ForgedNotification('missing or malformed signature');
    const t = Number(m[1]);
    if (Math.abs(this.clock.now() / 1000 - t) > toleranceSeconds)
      throw new ForgedNotification('signature timestamp out of tolerance');
    const expected = Buffer.from(signSandbox(this.secret, w.rawBody, t).split('v1=')[1]!, 'hex');
    const given = Buffer.from(m[2]!, 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new ForgedNotification('bad signature');
    let json: unknown;
    try {
      json = JSON.parse(w.rawBody);
    } catch {
      throw new ForgedNotification('body is not JSON');
    }
    const ev = SandboxEvent.safeParse(json);
    if (!ev.success) throw new ForgedNotification('body is not a sandbox event');
    return this.toNotification(ev.data);
  }

  private toNotification(ev: SandboxEvent): PaymentNotification {
    const base = {
      eventId: ev.id,
      ref: ev.data.ref,
      amount: minor(ev.data.amount),
      currency: ev.data.currency,
      payload: ev as unknown as Record<string, unknown>,
    };
    if (ev.type === 'refund.updated')
      return { ...base, kind: 'refund', refundId: ev.data.refundId, status: ev.data.status };
    if (ev.type === 'dispute.updated')
      return { ...base, kind: 'dispute', disputeId: ev.data.disputeId, status: ev.data.status };
    return { ...base, kind: 'payment', outcome: ev.type === 'checkout.paid' ? 'paid' : 'failed' };
  }

  async query(ref: string): Promise<PaymentOutcome | 'pending' | 'unknown'> {
    const c = await sandboxRepo.get(this.db.q, ref);
    if (!c) return 'unknown';
    if (c.status === 'open') return 'pending';
    const ev = SandboxCheckoutEvent.safeParse(c.lastEvent);
    return ev.success ? (this.toNotification(ev.data) as PaymentOutcome) : 'unknown';
  }

  async cancel(ref: string): Promise<void> {
    await sandboxRepo.settle(this.db.q, ref, 'cancelled', null);
  }

  /**
   * Refunds a paid checkout (no real money moves): the refund gets its own id, and its notification
   * is posted to our webhook, signed, as a real provider posts one (best effort: a command run
   * without the server has no webhook to reach, and the refund stands either way).
   */
  async refund(ref: string, amount: Minor): Promise<RefundResult> {
    const c = await sandboxRepo.get(this.db.q, ref);
    if (!c || c.status !== 'paid') throw new ProviderUnavailable('the sandbox checkout is not paid');
    const refundId = `sbxre_${randomBytes(12).toString('hex')}`;
    await this.send(c.notifyUrl, {
      id: `evt_${refundId}`,
      type: 'refund.updated',
      created: Math.floor(this.clock.now() / 1000),
      data: { ref, refundId, status: 'succeeded', amount, currency: c.currency },
    }).catch(() => 0);
    return { refundId, status: 'succeeded' };
  }

  // --- the provider's side: its page and what its buttons do ---

  private async send(notifyUrl: string, ev: SandboxEvent): Promise<number> {
    const body = JSON.stringify(ev);
    const signature = signSandbox(this.secret, body, Math.floor(this.clock.now() / 1000));
    const res = await this.deliver(notifyUrl, body, {
      'content-type': 'application/json',
      [sandboxSignatureHeader]: signature,
    });
    return res.status;
  }

  /** A button of the page. Returns what the page says after it (null: no such checkout). */
  async act(ref: string, action: SandboxAction): Promise<string | null> {
    const c = await sandboxRepo.get(this.db.q, ref);
    if (!c) return null;
    const event = (type: SandboxCheckoutEvent['type'], amount: number): SandboxCheckoutEvent => ({
      id: `evt_${ref}_${type === 'checkout.paid' ? 'paid' : 'failed'}`,
      type,
      created: Math.floor(this.clock.now() / 1000),
      data: { ref, amount, currency: c.currency },
    });
    if (action === 'resend') {
      const ev = SandboxCheckoutEvent.safeParse(c.lastEvent);
      if (!ev.success) return 'Nothing to send again.';
      return `Notification sent again (your server answered HTTP ${await this.send(c.notifyUrl, ev.data)}).`;
    }
    if (c.status !== 'open') return `This checkout is already ${c.status}.`;
    if (action === 'cancel') {
      await sandboxRepo.settle(this.db.q, ref, 'cancelled', null);
      return 'Payment cancelled. You can close this window.';
    }
    let ev: SandboxCheckoutEvent;
    if (action === 'fail') ev = event('checkout.failed', c.amount);
    else if (action === 'sendWrong') ev = event('checkout.paid', Math.max(1, c.amount - 100));
    else ev = event('checkout.paid', c.amount);
    if (!(await sandboxRepo.settle(this.db.q, ref, ev.type === 'checkout.paid' ? 'paid' : 'failed', ev)))
      return 'This checkout is already closed.';
    const status = await this.send(c.notifyUrl, ev);
    if (ev.type === 'checkout.failed') return `Payment failed (your server answered HTTP ${status}).`;
    if (action === 'sendWrong') return `A different amount was sent; your server answered HTTP ${status}.`;
    return `Payment sent (your server answered HTTP ${status}). You can close this window.`;
  }

  /** The provider page (HTML), or null when the checkout does not exist. */
  async page(ref: string, message: string | null): Promise<string | null> {
    const c = await sandboxRepo.get(this.db.q, ref);
    if (!c) return null;
    const amount = `${fromMinor(c.amount as Minor).toFixed(2)} ${c.currency.toUpperCase()}`;
    const crypto = c.crypto as {
      currency?: string;
      network?: string | null;
      amount?: string;
      address?: string;
    } | null;
    const button = (action: SandboxAction, label: string, kind = '') =>
      `<form method="post" action="/pay/sandbox/${escapeHtml(ref)}/${action}"><button type="submit" class="${kind}">${escapeHtml(label)}</button></form>`;
    let actions = '';
    if (c.status === 'open') {
      actions = crypto
        ? button('sendExact', `Send exactly ${crypto.amount} ${crypto.currency}`, 'primary') +
          button('sendWrong', 'Send a different amount') +
          button('cancel', 'Cancel')
        : button('pay', 'Pay', 'primary') + button('fail', 'Fail') + button('cancel', 'Cancel');
    } else if (c.status === 'paid' || c.status === 'failed') {
      actions = button('resend', 'Send the notification again');
    }
    // once done, back to where the payment started (a real provider's success / cancel URL)
    if (c.status !== 'open' && c.returnUrl)
      actions += `<a class="back" href="${escapeHtml(c.returnUrl)}">Return to ${escapeHtml(c.description.replace(/ top-up #\d+$/, ''))}</a>`;
    const cryptoRows = crypto
      ? `<dt>Send</dt><dd>${escapeHtml(`${crypto.amount} ${crypto.currency}`)}</dd>` +
        (crypto.network ? `<dt>Network</dt><dd>${escapeHtml(crypto.network)}</dd>` : '') +
        `<dt>To address</dt><dd><code>${escapeHtml(crypto.address ?? '')}</code></dd>`
      : '';
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox payment</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1f2328}
main{max-width:440px;margin:48px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0002}
h1{font-size:20px;margin:0 0 4px}.note{color:#57606a;font-size:14px;margin:0 0 20px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:0 0 20px}dt{color:#57606a}dd{margin:0;font-weight:600;word-break:break-all}
.actions{display:flex;gap:10px;flex-wrap:wrap}form{margin:0}
button{font:inherit;padding:10px 18px;border-radius:8px;border:1px solid #8c959f;background:#fff;color:#1f2328;cursor:pointer}
button.primary{background:#1a7f37;border-color:#1a7f37;color:#fff}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.msg{padding:10px 14px;border-radius:8px;background:#ddf4ff;margin:0 0 16px}
a.back{align-self:center;color:#0969da}
</style></head>
<body><main>
<h1>Sandbox payment provider</h1>
<p class="note">A stand-in for a real payment page: no real money moves.</p>
${message ? `<p class="msg" role="status">${escapeHtml(message)}</p>` : ''}
<dl><dt>Order</dt><dd>${escapeHtml(c.description)}</dd><dt>Amount</dt><dd>${escapeHtml(amount)}</dd>${cryptoRows}<dt>Status</dt><dd data-status="${escapeHtml(c.status)}">${escapeHtml(c.status)}</dd></dl>
<div class="actions">${actions}</div>
</main></body></html>`;
  }
}
