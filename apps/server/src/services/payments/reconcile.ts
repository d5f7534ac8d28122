import type { Minor } from '@numa/contract';
import type { Database } from '../../db';
import { paymentsRepo } from '../../repositories/payments';
import { reconcileRepo, returnsRepo, type ReturnStatus } from '../../repositories/paymentReturns';
import type { PaymentProvider, ProviderTransaction } from '../../providers/payments/port';
import { nextStatus, takesMoney } from './returns';

/** How one payment, refund or dispute stands between the provider and our books. */
export type ReconcileClass = 'matched' | 'missingOurs' | 'missingTheirs' | 'amountDiffers';

export interface ReconcileItem {
  class: ReconcileClass;
  kind: 'payment' | 'refund' | 'dispute';
  /** The provider's id: the checkout (payment), the refund or the dispute. */
  id: string;
  orderId: number | null;
  /** What the provider says: amount (Minor), currency, its status; null when it has no such thing. */
  theirs: { amount: Minor; currency: string; status: string; at: Date } | null;
  /** What our books say: the order or refund row's amount and state; null when we have no such thing. */
  ours: { amount: Minor; status: string } | null;
  note?: string;
}

export interface ReconcileReport {
  provider: string;
  /** Where the provider's side came from: its API (listTransactions), or the notifications we stored. */
  source: 'api' | 'events';
  from: Date;
  to: Date;
  items: ReconcileItem[];
  counts: Record<ReconcileClass, number>;
}

/**
 * The provider's side is read a little wider than the range (an hour each way), so a payment or
 * refund whose two sides fall on either side of midnight still matches; only items of the range
 * itself are reported.
 */
const marginMs = 3_600_000;

/** Lists in slices (a day of a busy provider is thousands of ids; one statement takes a slice). */
function chunks<T>(xs: T[], size = 1000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

interface Side {
  amount: Minor;
  currency?: string;
  status: string;
  /** money moved (a payment paid, a refund or dispute in effect) */
  effective: boolean;
  at?: Date;
}

/**
 * The class of one item from its two sides: amounts that differ between two sides that both know it;
 * otherwise whether money moved on each side: both (matched), only at the provider (missing on our
 * side), only in our books (missing on theirs). Neither side moving money: matched when both know it,
 * else nothing to report.
 */
export function classify(theirs: Side | null, ours: Side | null): ReconcileClass | null {
  if (theirs && ours && theirs.amount !== ours.amount) return 'amountDiffers';
  const t = theirs?.effective ?? false;
  const o = ours?.effective ?? false;
  if (t && o) return 'matched';
  if (t) return 'missingOurs';
  if (o) return 'missingTheirs';
  return theirs && ours ? 'matched' : null;
}

/**
 * Whether a provider's status (its API's words, or ours from the stored events) means money moved.
 * Stripe: a session `paid`, a refund `pending` / `succeeded` / `requires_action`; PayPal's transaction
 * search: `S` (success), `F` (partly refunded, still paid), `P` (pending: a refund on its way);
 * BTCPay: `Settled`.
 */
function theirsEffective(t: ProviderTransaction): boolean {
  const s = t.status.toLowerCase();
  if (t.kind === 'payment')
    return ['paid', 'succeeded', 's', 'f', 'settled', 'complete', 'completed'].includes(s);
  if (t.kind === 'refund')
    return ['pending', 'succeeded', 'requires_action', 's', 'p', 'completed'].includes(s);
  // a dispute holds the money back while open (needs_response, under_review, appeal_…) and when
  // lost; an inquiry (warning_…) takes nothing, and won or prevented gave it back (PayPal: V, D)
  return !(s === 'won' || s === 'prevented' || s.startsWith('warning_') || s === 'v' || s === 'd');
}

/**
 * Reconciliation (issue 18 §4): for a range, every payment, refund and dispute of a provider against
 * our orders, their bills and our refund / dispute rows: matched, missing on our side (the provider
 * has money moving we have not booked), missing on theirs (we booked money the provider does not
 * show), amount differs. The provider's side comes from its API where it has one
 * (`listTransactions`), else from the notifications we stored (the sandbox).
 */
export function createReconciler(deps: { db: Database }) {
  const { db } = deps;

  /** The provider's side from its notifications: each object's latest word, in our terms. */
  async function fromEvents(provider: string, from: Date, to: Date): Promise<ProviderTransaction[]> {
    const events = await reconcileRepo.events(db.q, provider, from, to);
    const payments = new Map<string, ProviderTransaction>();
    const returns = new Map<string, ProviderTransaction>();
    for (const e of events) {
      if (e.amount === null || !e.currency) continue;
      if (e.kind === 'payment') {
        const id = e.ref ?? e.paymentRef;
        if (!id) continue;
        const seen = payments.get(id);
        // money that arrived once has arrived: a later "failed" does not take it back
        if (!seen || (seen.status !== 'paid' && e.status === 'paid'))
          payments.set(id, {
            kind: 'payment',
            id,
            ...(e.ref ? { ref: e.ref } : {}),
            ...(e.paymentRef ? { paymentRef: e.paymentRef } : {}),
            amount: e.amount,
            currency: e.currency,
            status: e.status ?? 'unknown',
            at: seen?.at ?? e.createdAt,
          });
      } else if ((e.kind === 'refund' || e.kind === 'dispute') && e.objectId) {
        const key = `${e.kind}:${e.objectId}`;
        const seen = returns.get(key);
        const status = seen
          ? (nextStatus(e.kind, seen.status as ReturnStatus, e.status as ReturnStatus) ?? seen.status)
          : (e.status ?? 'unknown');
        returns.set(key, {
          kind: e.kind,
          id: e.objectId,
          ...(e.ref ? { ref: e.ref } : seen?.ref ? { ref: seen.ref } : {}),
          ...(e.paymentRef
            ? { paymentRef: e.paymentRef }
            : seen?.paymentRef
              ? { paymentRef: seen.paymentRef }
              : {}),
          amount: seen?.amount ?? e.amount,
          currency: e.currency,
          status,
          at: seen?.at ?? e.createdAt,
        });
      }
    }
    return [...payments.values(), ...returns.values()];
  }

  return {
    async run(provider: PaymentProvider, from: Date, to: Date): Promise<ReconcileReport> {
      const wideFrom = new Date(from.getTime() - marginMs);
      const wideTo = new Date(to.getTime() + marginMs);
      const source = provider.listTransactions ? 'api' : 'events';
      const listed = provider.listTransactions
        ? await provider.listTransactions(wideFrom, wideTo)
        : await fromEvents(provider.name, wideFrom, wideTo);
      const inRange = (d: Date | null | undefined) => !!d && d >= from && d < to;
      const items: ReconcileItem[] = [];
      const add = (
        kind: ReconcileItem['kind'],
        id: string,
        orderId: number | null,
        theirs: (Side & { currency: string; at: Date }) | null,
        ours: Side | null,
        note?: string,
      ) => {
        const c = classify(theirs, ours);
        if (!c) return;
        items.push({
          class: c,
          kind,
          id,
          orderId,
          theirs: theirs
            ? { amount: theirs.amount, currency: theirs.currency, status: theirs.status, at: theirs.at }
            : null,
          ours: ours ? { amount: ours.amount, status: ours.status } : null,
          ...(note ? { note } : {}),
        });
      };

      // --- payments: the provider's payments against our orders and their credit bills, matched by
      // checkout (Checkout.ref) or, where the provider lists the payment itself (PayPal's capture),
      // by the payment id the order recorded when it was paid
      const theirPayments = listed.filter((t) => t.kind === 'payment');
      const theirByRef = new Map(theirPayments.flatMap((t) => (t.ref ? [[t.ref, t] as const] : [])));
      const theirByPayment = new Map(
        theirPayments.flatMap((t) => (t.paymentRef ? [[t.paymentRef, t] as const] : [])),
      );
      const ordersById = new Map(
        (await reconcileRepo.orders(db.q, provider.name, { from, to })).map((o) => [o.id, o] as const),
      );
      const known = () => {
        const refs = new Set<string>();
        const payments = new Set<string>();
        for (const o of ordersById.values()) {
          refs.add(o.ref);
          if (o.paymentRef) payments.add(o.paymentRef);
        }
        return { refs, payments };
      };
      const before = known();
      const refsToFind = theirPayments.flatMap((t) => (t.ref && !before.refs.has(t.ref) ? [t.ref] : []));
      for (const refs of chunks(refsToFind))
        for (const o of await reconcileRepo.orders(db.q, provider.name, { refs })) ordersById.set(o.id, o);
      const after = known();
      const paymentsToFind = theirPayments.flatMap((t) =>
        !(t.ref && after.refs.has(t.ref)) && t.paymentRef && !after.payments.has(t.paymentRef)
          ? [t.paymentRef]
          : [],
      );
      for (const paymentRefs of chunks(paymentsToFind))
        for (const o of await reconcileRepo.orders(db.q, provider.name, { paymentRefs }))
          ordersById.set(o.id, o);
      const matchedTheirs = new Set<ProviderTransaction>();
      const orderByRef = new Map<string, { id: number }>();
      for (const o of [...ordersById.values()].sort((a, b) => a.id - b.id)) {
        orderByRef.set(o.ref, o);
        const t = theirByRef.get(o.ref) ?? (o.paymentRef ? theirByPayment.get(o.paymentRef) : undefined);
        if (t) matchedTheirs.add(t);
        if (!inRange(o.createdAt) && !inRange(t?.at)) continue;
        const credited = o.status === 'paid' && o.billId !== null;
        const billRight = o.billCharge === null || Number(o.billCharge) === o.amount + o.bonus;
        add(
          'payment',
          o.ref,
          o.id,
          t
            ? {
                amount: t.amount,
                currency: t.currency,
                status: t.status,
                effective: theirsEffective(t),
                at: t.at,
              }
            : null,
          {
            amount: billRight ? o.amount : (Number(o.billCharge) as Minor),
            status: o.status === 'paid' && o.billId === null ? 'paid without a bill' : o.status,
            effective: credited,
          },
          !billRight ? 'the credit bill is not amount + bonus' : undefined,
        );
      }
      for (const t of theirPayments) {
        if (matchedTheirs.has(t) || !inRange(t.at)) continue;
        add(
          'payment',
          t.ref ?? t.id,
          null,
          {
            amount: t.amount,
            currency: t.currency,
            status: t.status,
            effective: theirsEffective(t),
            at: t.at,
          },
          null,
          'no order of ours has this payment',
        );
      }

      // --- refunds and disputes: the provider's against our rows (and their bills)
      for (const kind of ['refund', 'dispute'] as const) {
        const theirs = new Map(listed.filter((t) => t.kind === kind).map((t) => [t.id, t] as const));
        const ours = new Map(
          (await returnsRepo.madeIn(db.q, provider.name, from, to))
            .filter((r) => r.kind === kind)
            .map((r) => [r.returnId, r] as const),
        );
        for (const ids of chunks([...theirs.keys()].filter((id) => !ours.has(id))))
          for (const r of await returnsRepo.byIds(db.q, provider.name, kind, ids)) ours.set(r.returnId, r);
        // which of the provider's are ours at all: a row of ours, or the payment of one of our orders
        const byPayment = new Map<string, number>();
        const paymentRefs = [
          ...new Set(
            [...theirs.values()].flatMap((t) => (t.paymentRef && !ours.has(t.id) ? [t.paymentRef] : [])),
          ),
        ];
        for (const refs of chunks(paymentRefs))
          for (const o of await reconcileRepo.ordersByPaymentRef(db.q, provider.name, refs))
            byPayment.set(o.paymentRef!, o.id);
        for (const t of theirs.values()) {
          if (ours.has(t.id) || !inRange(t.at)) continue;
          let orderId =
            (t.ref ? (orderByRef.get(t.ref)?.id ?? null) : null) ??
            (t.paymentRef ? (byPayment.get(t.paymentRef) ?? null) : null);
          if (orderId === null && t.paymentRef && provider.findRef) {
            const ref = await provider.findRef(t.paymentRef).catch(() => null);
            if (ref) orderId = (await paymentsRepo.byRef(db.q, provider.name, ref))?.id ?? null;
            else continue; // another product's payment on the same provider account
          }
          add(
            kind,
            t.id,
            orderId,
            {
              amount: t.amount,
              currency: t.currency,
              status: t.status,
              effective: theirsEffective(t),
              at: t.at,
            },
            null,
          );
        }
        for (const r of ours.values()) {
          const t = theirs.get(r.returnId);
          if (!inRange(r.createdAt) && !inRange(t?.at)) continue;
          const effective = r.debitBill !== null && r.reversalBill === null;
          add(
            kind,
            r.returnId,
            r.orderId,
            t
              ? {
                  amount: t.amount,
                  currency: t.currency,
                  status: t.status,
                  effective: theirsEffective(t),
                  at: t.at,
                }
              : null,
            {
              amount: r.amount,
              status: r.excess
                ? `${r.status} (excess, not debited)`
                : effective
                  ? `${r.status}, debited`
                  : takesMoney(r.kind, r.status)
                    ? `${r.status}, waiting for the payment`
                    : r.status,
              effective,
            },
          );
        }
      }

      const counts: Record<ReconcileClass, number> = {
        matched: 0,
        missingOurs: 0,
        missingTheirs: 0,
        amountDiffers: 0,
      };
      for (const i of items) counts[i.class]++;
      return { provider: provider.name, source, from, to, items, counts };
    },
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;
