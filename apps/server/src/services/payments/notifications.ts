import { addMinor, constants, fromMinor, type BrandId } from '@numa/contract';
import type { Tx } from '../../db';
import { ApiError } from '../../lib/errors';
import { idemKey } from '../../lib/idem';
import { ledger } from '../../repositories/ledger';
import { paymentsRepo, type OrderRow } from '../../repositories/payments';
import type { ReturnStatus } from '../../repositories/paymentReturns';
import {
  ForgedNotification,
  type DisputeNotification,
  type IncomingWebhook,
  type PaymentNotification,
  type PaymentOutcome,
  type PaymentProvider,
  type RefundNotification,
} from '../../providers/payments/port';
import type { PaymentContext } from './context';
import { purchaseMethodOf, type ReturnResult } from './returns';

/** A notification's answer when one event told of several refunds (Stripe's charge.refunded): the first of these any of them had. */
const outcomeOrder = ['credited', 'debited', 'failed', 'recorded', 'duplicate', 'ignored'] as const;

/**
 * Notifications: a provider's word (webhook, the payer's return, the operator's re-query) that an
 * order was paid, failed, refunded or disputed — verified, then applied once: a top-up is credited
 * once whatever the provider repeats.
 */
export function createPaymentNotifications(ctx: PaymentContext) {
  const { db, clock, plog, byName, returns } = ctx;

  /** What a notification says, in our terms, for its record (reconciliation reads it). */
  const described = (n: PaymentNotification) => ({
    kind: n.kind,
    ref: n.ref,
    paymentRef: n.paymentRef,
    ...(n.kind === 'refund'
      ? { objectId: n.refundId }
      : n.kind === 'dispute'
        ? { objectId: n.disputeId }
        : {}),
    status: n.kind === 'payment' ? n.outcome : n.status,
    amount: n.amount,
    currency: n.currency,
  });

  /**
   * The order a notification is about: by its checkout, else by the provider's id of the payment
   * (recorded when it was paid), else by asking the provider which checkout that payment belongs to
   * (a refund heard before its payment).
   */
  async function findOrder(provider: PaymentProvider, n: PaymentNotification): Promise<OrderRow | null> {
    if (n.ref) {
      const byRef = await paymentsRepo.byRef(db.q, provider.name, n.ref);
      if (byRef) return byRef;
    }
    if (!n.paymentRef) return null;
    const byPayment = await paymentsRepo.byPaymentRef(db.q, provider.name, n.paymentRef);
    if (byPayment || !provider.findRef) return byPayment;
    const ref = await provider.findRef(n.paymentRef);
    return ref && ref !== n.ref ? paymentsRepo.byRef(db.q, provider.name, ref) : null;
  }

  /** Records a notification that moves nothing (refused, or about no order of ours). */
  const recordAside = (
    provider: PaymentProvider,
    n: PaymentNotification,
    orderId: number | null,
    result: string,
  ) =>
    db.tx((tx) =>
      paymentsRepo.recordEvent(tx, {
        provider: provider.name,
        eventId: n.eventId,
        orderId,
        result,
        payload: n.payload,
        ...described(n),
      }),
    );

  /**
   * Credits a verified paid notification once, also after a "failed", "cancelled" or "expired" (the
   * money arrived after all); a "failed" closes only a pending order. The refusals are recorded and
   * logged. A payment's refunds or disputes heard before it are applied with its credit.
   */
  async function settle(
    provider: PaymentProvider,
    n: PaymentOutcome,
    hostBrand: BrandId | null,
  ): Promise<'credited' | 'failed' | 'duplicate' | 'ignored'> {
    const order = await findOrder(provider, n);
    if (!order) {
      plog.warn(
        { eventId: n.eventId, ref: n.ref, paymentRef: n.paymentRef },
        'payment notification for no order refused',
      );
      await recordAside(provider, n, null, 'refused: no order');
      throw new ApiError(200046);
    }
    const refuse = async (why: string) => {
      plog.error(
        { eventId: n.eventId, orderId: order.id, why, got: { amount: n.amount, currency: n.currency } },
        'payment notification refused',
      );
      await recordAside(provider, n, order.id, `refused: ${why}`);
      return new ApiError(100001, null, why);
    };
    if (hostBrand && order.brand !== hostBrand) throw await refuse('brand');
    if (n.outcome === 'paid' && (n.amount !== order.amount || n.currency !== order.currency))
      throw await refuse('amount');
    const now = new Date(clock.now());
    const record = (tx: Tx, result: string) =>
      paymentsRepo.recordEvent(tx, {
        provider: provider.name,
        eventId: n.eventId,
        orderId: order.id,
        result,
        payload: n.payload,
        ...described(n),
      });
    return db.tx(async (tx) => {
      if (n.outcome === 'failed') {
        // a failure after the payment (or after another failure) changes nothing
        const closed = await paymentsRepo.close(tx, order.id, 'failed', now);
        if (!(await record(tx, closed ? 'failed' : 'ignored'))) return 'duplicate';
        return closed ? 'failed' : 'ignored';
      }
      // one writer wins the order; its bill has the order's key besides
      const paid = await paymentsRepo.markPaid(tx, order.id, now, n.paymentRef);
      const fresh = await record(tx, paid ? 'credited' : 'ignored');
      if (!paid) {
        if (n.paymentRef && !order.paymentRef) {
          await paymentsRepo.setPaymentRef(tx, order.id, n.paymentRef);
          const locked = await paymentsRepo.lock(tx, order.id);
          if (locked?.status === 'paid' && (await adoptOrphans(tx, provider, locked, n.paymentRef)))
            await returns.settle(tx, locked);
        }
        return fresh ? 'ignored' : 'duplicate';
      }
      await ledger.apply(tx, {
        accountId: order.accountId,
        type: constants.billTypes.recharge,
        charge: addMinor(order.amount, order.bonus),
        options: {
          amount: fromMinor(order.amount),
          gift: fromMinor(order.bonus),
          purchaseMethod: purchaseMethodOf(order.method),
          orderId: String(order.id),
        },
        idempotencyKey: idemKey('pay', order.id),
      });
      // refunds and disputes heard before the payment itself take their money now
      if (paid.paymentRef) await adoptOrphans(tx, provider, paid, paid.paymentRef);
      await returns.settle(tx, paid);
      return 'credited';
    });
  }

  /**
   * Within the paying transaction: refunds and disputes the provider told of this payment before we
   * knew which order it was (recorded with no order: a PayPal refund delivered before its capture)
   * become the order's; returns how many.
   */
  async function adoptOrphans(tx: Tx, provider: PaymentProvider, order: OrderRow, paymentRef: string) {
    const orphans = await paymentsRepo.orphanReturnEvents(tx, provider.name, paymentRef);
    for (const e of orphans) {
      if (
        (e.kind !== 'refund' && e.kind !== 'dispute') ||
        !e.objectId ||
        !e.status ||
        e.amount === null ||
        !(e.amount > 0) ||
        e.currency !== order.currency
      )
        continue;
      await returns.record(
        tx,
        provider.name,
        {
          kind: e.kind,
          returnId: e.objectId,
          status: e.status as ReturnStatus,
          amount: e.amount,
          currency: e.currency,
        },
        order.id,
        'provider',
      );
    }
    await paymentsRepo.attachEvents(
      tx,
      orphans.map((e) => e.id),
      order.id,
    );
    if (orphans.length)
      plog.info(
        { orderId: order.id, paymentRef, adopted: orphans.length },
        'refunds or disputes told before the payment adopted',
      );
    return orphans.length;
  }

  /** A refund or dispute the provider tells of: applied to its order once (paymentReturns). */
  async function giveBack(
    provider: PaymentProvider,
    n: RefundNotification | DisputeNotification,
  ): Promise<ReturnResult | 'ignored'> {
    const order = await findOrder(provider, n);
    if (!order) {
      plog.warn(
        { eventId: n.eventId, ref: n.ref, paymentRef: n.paymentRef, kind: n.kind },
        'refund or dispute of no order of ours: recorded, nothing moves',
      );
      await recordAside(provider, n, null, 'ignored: no order');
      return 'ignored';
    }
    if (n.currency !== order.currency || !(n.amount > 0)) {
      plog.error(
        { eventId: n.eventId, orderId: order.id, got: { amount: n.amount, currency: n.currency } },
        'refund or dispute notification refused',
      );
      await recordAside(provider, n, order.id, 'refused: amount');
      throw new ApiError(100001, null, 'amount');
    }
    return returns.apply(provider.name, n, order, 'provider');
  }

  return {
    /** Settles a verified payment outcome once (also the operator's re-query). */
    settle,
    /** A provider's notification (webhook): verified, then settled once. */
    async notify(providerName: string, webhook: IncomingWebhook, hostBrand: BrandId | null) {
      const provider = byName(providerName);
      if (!provider) throw new ApiError(100003);
      let n: PaymentNotification | PaymentNotification[] | null;
      try {
        n = await provider.parseNotification(webhook);
      } catch (err) {
        if (err instanceof ForgedNotification) {
          plog.warn({ why: err.message }, 'payment notification with a bad signature refused');
          throw new ApiError(100003, null, 'signature');
        }
        throw err;
      }
      if (!n) return 'ignored' as const;
      const results: string[] = [];
      // the brand of the host a notification came to says something only for the sandbox, which posts
      // to the brand's own host; PayPal, BTCPay (and Stripe) post every brand's events to the one URL
      // configured at them, and their signatures already say who sent it
      const brand = provider.name === 'sandbox' ? hostBrand : null;
      for (const one of Array.isArray(n) ? n : [n])
        results.push(
          one.kind === 'payment' ? await settle(provider, one, brand) : await giveBack(provider, one),
        );
      // one answer per event (a metric's label): what moved money first, else what was done
      return outcomeOrder.find((o) => results.includes(o)) ?? 'ignored';
    },

    /**
     * The payer is back from the provider's page (PayPal's return URL): the provider is asked how the
     * checkout stands (PayPal captures an approved order then) and the order settled as it says, once.
     * Answers the order's own return URL (null: none), or null when no order has this reference.
     */
    async returned(providerName: string, ref: string): Promise<{ returnUrl: string | null } | null> {
      const p = byName(providerName);
      const order = p ? await paymentsRepo.byRef(db.q, p.name, ref) : null;
      if (!p || !order) return null;
      if (order.status !== 'paid') {
        const answer = await p.query(ref);
        if (answer !== 'pending' && answer !== 'unknown')
          await settle(p, answer, null).catch((err: unknown) =>
            plog.warn({ err, orderId: order.id }, 'payment return could not settle the order'),
          );
      }
      return { returnUrl: order.returnUrl };
    },

    /**
     * The payer cancelled on the provider's page, which sent them to our cancel URL (issue 20): one
     * path for every provider. A pending order is closed as cancelled (the payment dialog says so at
     * its next read) and the provider's checkout closed too (best effort: Stripe's session expired, so
     * it cannot be paid later). An order already settled stays as it is, and so does a replay; a
     * payment that arrives after all is still credited once (`settle`). The order is named by the
     * provider's reference, or by our id where the cancel URL names no checkout (Stripe: the link is
     * signed, see verifyCancel). Returns where the payer goes on to, or null (no such order).
     */
    async cancelledByPayer(
      providerName: string,
      which: { ref: string } | { orderId: number },
    ): Promise<{ returnUrl: string | null } | null> {
      const p = byName(providerName);
      const found =
        'ref' in which
          ? await paymentsRepo.byRef(db.q, providerName, which.ref)
          : await paymentsRepo.byId(db.q, which.orderId);
      const order = found?.provider === providerName ? found : null;
      if (!order) return null;
      const closed =
        order.status === 'pending'
          ? await paymentsRepo.close(db.q, order.id, 'cancelled', new Date(clock.now()))
          : null;
      if (closed && p && order.providerRef)
        await p
          .cancel(order.providerRef)
          .catch((err: unknown) =>
            plog.warn(
              { err, orderId: order.id },
              'the cancelled checkout could not be closed at the provider',
            ),
          );
      if (closed) plog.info({ orderId: order.id, provider: providerName }, 'payment cancelled by the payer');
      return { returnUrl: order.returnUrl };
    },

    /** Whether a provider of this name runs here. */
    hasProvider: (providerName: string): boolean => byName(providerName) !== null,

    /** Whether a cancel link naming our order id carries the provider's signature of it. */
    cancelSigned: (providerName: string, orderId: number, sig: string): boolean =>
      byName(providerName)?.verifyCancel?.(orderId, sig) ?? false,

    /** Where a payer who left the provider's page goes back to (the order's return URL), without asking it. */
    async returnUrlOf(providerName: string, ref: string): Promise<{ returnUrl: string | null } | null> {
      const order = await paymentsRepo.byRef(db.q, providerName, ref);
      return order ? { returnUrl: order.returnUrl } : null;
    },
  };
}
