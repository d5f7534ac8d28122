import { fromMinor, minor, type Minor } from '@numa/contract';
import { DAY_MS, HOUR_MS } from '../../lib/dates';
import { paymentsRepo } from '../../repositories/payments';
import type { PaymentOutcome, PaymentProvider } from '../../providers/payments/port';
import type { PaymentContext } from './context';
import { createReconciler, type ReconcileReport } from './reconcile';
import { takesMoney } from './returns';

declare module '../../jobs/types' {
  interface JobPayloads {
    'payments.reconcile': Record<string, never>;
  }
}

/**
 * The daily reconciliation runs at 04:00 UTC for the day before: late notifications have come in by
 * then, and PayPal's transaction search lists a transaction up to three hours after it happened.
 */
const reconcileOffsetMs = 4 * HOUR_MS;

/** The operator's tools: the list of orders, one order's story, a re-query, a refund, and reconciliation (also daily). */
export function createPaymentOperator(
  ctx: PaymentContext,
  settle: (provider: PaymentProvider, n: PaymentOutcome, hostBrand: null) => Promise<string>,
) {
  const { db, jobs, clock, plog, all, byName, returns } = ctx;
  const reconciler = createReconciler({ db });

  /** Reconciles every configured provider for [from, to). */
  async function reconcile(from: Date, to: Date, only?: string): Promise<ReconcileReport[]> {
    const reports: ReconcileReport[] = [];
    for (const p of all) if (!only || p.name === only) reports.push(await reconciler.run(p, from, to));
    return reports;
  }

  // every day at 04:00 UTC, the day before: differences are logged (warn) with their count and items
  jobs.define(
    'payments.reconcile',
    async (_p, ctx) => {
      const now = ctx.now();
      const to = new Date(now - ((now - reconcileOffsetMs) % DAY_MS) - reconcileOffsetMs);
      const from = new Date(to.getTime() - DAY_MS);
      // each provider on its own: one that cannot be read does not hide the others' differences
      const unread: string[] = [];
      for (const p of all) {
        let r: ReconcileReport;
        try {
          r = await reconciler.run(p, from, to);
        } catch (err) {
          plog.error(
            { err, provider: p.name, from, to },
            'payment reconciliation could not read the provider',
          );
          unread.push(p.name);
          continue;
        }
        const differences = r.items.filter((i) => i.class !== 'matched');
        const summary = { provider: r.provider, source: r.source, from, to, counts: r.counts };
        if (differences.length)
          plog.warn(
            { ...summary, differences: differences.length, items: differences },
            'payment reconciliation found differences',
          );
        else plog.info(summary, 'payment reconciliation: everything matches');
      }
      // tried again later (the job's retries), all of it
      if (unread.length) throw new Error(`payment reconciliation could not read ${unread.join(', ')}`);
    },
    { maxAttempts: 5, timeoutMs: 15 * 60_000 },
  );
  jobs.schedule('payments.reconcile', { everyMs: DAY_MS, offsetMs: reconcileOffsetMs }, {});

  return {
    /** The operator's list, each order with its refunds and disputes. */
    async list(f: { accountId?: number; status?: string; limit?: number }) {
      const orders = await paymentsRepo.list(db.q, { ...f, limit: f.limit ?? 50 });
      const rows = await returns.ofOrders(orders.map((o) => o.id));
      return orders.map((order) => ({ order, returns: rows.filter((r) => r.orderId === order.id) }));
    },

    /** One order, every notification about it, and its refunds and disputes. */
    async show(orderId: number) {
      const order = await paymentsRepo.byId(db.q, orderId);
      if (!order) return null;
      return {
        order,
        events: await paymentsRepo.eventsOf(db.q, orderId),
        returns: await returns.ofOrder(orderId),
      };
    },

    /** Re-queries a stuck order at its provider and settles it as the provider says. */
    async requery(orderId: number): Promise<string> {
      const order = await paymentsRepo.byId(db.q, orderId);
      if (!order) return 'no such order';
      if (order.status === 'paid') return 'already paid';
      const p = byName(order.provider);
      if (!p) return `provider ${order.provider} is not configured`;
      const answer = await p.query(order.providerRef);
      if (answer === 'pending' || answer === 'unknown') return `provider says ${answer}`;
      return settle(p, answer, null);
    },

    /**
     * Refunds a paid order at its provider, all of what is left to refund or `amount` of it: the
     * refund's own bill (type 11) takes it back with its share of the bonus, once. It is the same
     * refund as the provider's notifications of it (keyed by the provider's refund id), so the
     * webhook that follows moves nothing more.
     */
    async refund(orderId: number, amount?: Minor): Promise<string> {
      const order = await paymentsRepo.byId(db.q, orderId);
      if (!order) return 'no such order';
      if (order.status !== 'paid') return `not paid (${order.status})`;
      const refunded = (await returns.ofOrder(order.id))
        .filter((r) => r.kind === 'refund' && !r.excess && takesMoney('refund', r.status))
        .reduce((sum, r) => sum + r.amount, 0);
      const left = order.amount - refunded;
      if (left <= 0) return 'already refunded';
      const want = amount ?? minor(left);
      if (!(want > 0) || want > left)
        return `only ${fromMinor(minor(left))} ${order.currency} is left to refund`;
      const p = byName(order.provider);
      if (!p) return `provider ${order.provider} is not configured`;
      const done = await p.refund(order.providerRef, want);
      const refundId = done?.refundId ?? `op:${order.id}:${clock.now()}`;
      const status = done?.status ?? 'succeeded';
      const result = await returns.apply(
        p.name,
        {
          kind: 'refund',
          eventId: `operator:${refundId}`,
          ref: order.providerRef,
          ...(done?.paymentRef ? { paymentRef: done.paymentRef } : {}),
          refundId,
          status,
          amount: want,
          currency: order.currency,
          payload: { by: 'operator', refundId, amount: want },
        },
        order,
        'operator',
      );
      plog.info({ orderId: order.id, refundId, amount: want, status, result }, 'operator refund');
      if (status === 'failed' || status === 'canceled') return `the provider says the refund ${status}`;
      return want === left ? 'refunded' : `refunded ${fromMinor(want)} ${order.currency}`;
    },

    /** Reconciliation (the operator's command, the daily job): one report per provider. */
    reconcile,
  };
}
