import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Stripe from 'stripe';

type Obj = Record<string, unknown>;

/** Stripe's documented example objects (test/fixtures/stripe, from its OpenAPI fixtures). */
export const stripeFixture = (name: 'charge' | 'refund' | 'dispute' | 'checkout.session'): Obj =>
  JSON.parse(
    readFileSync(path.join(import.meta.dirname, 'fixtures', 'stripe', `${name}.json`), 'utf8'),
  ) as Obj;

/**
 * A local stand-in for Stripe's API, enough for the adapter: Checkout Sessions (create, retrieve,
 * expire, list by payment_intent or created), refunds (create, list by charge or created), charges
 * (retrieve), disputes (list by created). Objects are Stripe's documented fixtures with the case's
 * ids and amounts; tests change them (pay a session, add a refund or dispute) through the maps.
 */
export class StripeFake {
  readonly sessions = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  readonly disputes = new Map<string, Obj>();
  /** Every API call received: `METHOD path`. */
  readonly requests: string[] = [];
  /** Every refund create request's form. */
  readonly refundRequests: URLSearchParams[] = [];
  private server: Server | null = null;
  private seq = 0;
  /** Seconds: the objects' `created` (tests move it with the app's clock). */
  now = () => Math.floor(Date.now() / 1000);

  constructor(readonly key = 'sk_test_fake_key') {}

  get url() {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start() {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () =>
        this.answer(req.method ?? 'GET', req.url ?? '/', body, req.headers.authorization, res),
      );
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
  }

  async stop() {
    await new Promise((r) => this.server?.close(r));
  }

  /** The session of a checkout is paid: a payment intent and its charge now exist. */
  pay(sessionId: string): { intent: string; charge: string; session: Obj } {
    const s = this.sessions.get(sessionId)!;
    const n = ++this.seq;
    const intent = `pi_fake${n}`;
    const charge = `ch_fake${n}`;
    Object.assign(s, { payment_status: 'paid', status: 'complete', payment_intent: intent });
    // since API version 2022-11-15 a charge carries no `refunds` list (it is listed apart)
    const { refunds: _refunds, ...fixture } = stripeFixture('charge');
    this.charges.set(charge, {
      ...fixture,
      id: charge,
      amount: s.amount_total,
      amount_captured: s.amount_total,
      amount_refunded: 0,
      currency: s.currency,
      payment_intent: intent,
      paid: true,
      captured: true,
      created: this.now(),
    });
    return { intent, charge, session: { ...s } };
  }

  /** A refund of a paid session's charge, as Stripe stores it. */
  addRefund(charge: string, amount: number, status = 'succeeded', id = `re_fake${++this.seq}`): Obj {
    const c = this.charges.get(charge)!;
    const r = {
      ...stripeFixture('refund'),
      id,
      amount,
      charge,
      currency: c.currency,
      payment_intent: c.payment_intent,
      status,
      created: this.now(),
    };
    this.refunds.set(id, r);
    c.amount_refunded = [...this.refunds.values()]
      .filter((x) => x.charge === charge && x.status !== 'failed' && x.status !== 'canceled')
      .reduce((sum, x) => sum + (x.amount as number), 0);
    c.refunded = c.amount_refunded === c.amount;
    return r;
  }

  /** A dispute of a paid session's charge. */
  addDispute(charge: string, amount: number, status: string, id = `dp_fake${++this.seq}`): Obj {
    const c = this.charges.get(charge)!;
    const d = {
      ...stripeFixture('dispute'),
      id,
      amount,
      charge,
      currency: c.currency,
      payment_intent: c.payment_intent,
      status,
      created: this.now(),
    };
    this.disputes.set(id, d);
    c.disputed = true;
    return d;
  }

  private answer(
    method: string,
    rawUrl: string,
    body: string,
    auth: string | undefined,
    res: ServerResponse,
  ) {
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.seq}` });
      res.end(JSON.stringify(v));
    };
    this.requests.push(`${method} ${new URL(rawUrl, 'http://x').pathname}`);
    if (auth !== `Bearer ${this.key}`)
      return json(401, { error: { type: 'invalid_request_error', message: 'bad key' } });
    const url = new URL(rawUrl, 'http://x');
    const q = url.searchParams;
    const list = (all: Obj[], path: string) => {
      const gte = q.get('created[gte]');
      const lt = q.get('created[lt]');
      const data = all.filter(
        (o) =>
          (gte === null || (o.created as number) >= Number(gte)) &&
          (lt === null || (o.created as number) < Number(lt)),
      );
      return json(200, { object: 'list', data, has_more: false, url: path });
    };
    const p = url.pathname;
    if (p === '/v1/checkout/sessions' && method === 'POST') {
      const form = new URLSearchParams(body);
      const id = `cs_test_fake${++this.seq}`;
      const metadata: Obj = {};
      for (const [k, v] of form) {
        const m = /^metadata\[(\w+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const s = {
        ...stripeFixture('checkout.session'),
        id,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
        amount_subtotal: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]'),
        client_reference_id: form.get('client_reference_id'),
        success_url: form.get('success_url'),
        cancel_url: form.get('cancel_url'),
        metadata,
        payment_intent: null,
        payment_status: 'unpaid',
        status: 'open',
        created: this.now(),
      };
      this.sessions.set(id, s);
      return json(200, s);
    }
    if (p === '/v1/checkout/sessions' && method === 'GET') {
      const intent = q.get('payment_intent');
      const all = [...this.sessions.values()].filter((s) => !intent || s.payment_intent === intent);
      return list(all, p);
    }
    const session = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(p);
    if (session && this.sessions.has(session[1]!)) {
      const s = this.sessions.get(session[1]!)!;
      if (session[2]) s.status = 'expired';
      return json(200, s);
    }
    if (p === '/v1/refunds' && method === 'POST') {
      const form = new URLSearchParams(body);
      this.refundRequests.push(form);
      const intent = form.get('payment_intent');
      const charge = [...this.charges.values()].find((c) => c.payment_intent === intent);
      if (!charge)
        return json(400, { error: { type: 'invalid_request_error', message: 'No such payment_intent' } });
      return json(200, this.addRefund(charge.id as string, Number(form.get('amount') ?? charge.amount)));
    }
    if (p === '/v1/refunds' && method === 'GET') {
      const charge = q.get('charge');
      return list(
        [...this.refunds.values()].filter((r) => !charge || r.charge === charge),
        p,
      );
    }
    const charge = /^\/v1\/charges\/(\w+)$/.exec(p);
    if (charge && this.charges.has(charge[1]!)) return json(200, this.charges.get(charge[1]!));
    if (p === '/v1/disputes' && method === 'GET') return list([...this.disputes.values()], p);
    return json(404, { error: { type: 'invalid_request_error', message: `no such thing: ${method} ${p}` } });
  }
}

/** An event as Stripe sends it (API version 2025), with its `Stripe-Signature` made by the SDK. */
export function stripeEvent(
  secret: string,
  type: string,
  object: Obj,
  id: string,
  apiVersion = '2025-10-29.clover',
) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    api_version: apiVersion,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  return {
    payload,
    header: new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret }),
  };
}
