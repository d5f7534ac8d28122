import {
  addMinor,
  constants,
  fromMinor,
  minor,
  negMinor,
  type Minor,
  type PaymentHistoryItem,
} from '@numa/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db';
import { idemKey } from '../../lib/idem';
import { ledger } from '../../repositories/ledger';
import { paymentsRepo, type OrderRow } from '../../repositories/payments';
import {
  returnsRepo,
  type ReturnKind,
  type ReturnRow,
  type ReturnStatus,
} from '../../repositories/paymentReturns';
import type { DisputeNotification, RefundNotification } from '../../providers/payments/port';

/** What applying a refund or dispute did: money moved one way or the other, or only the record. */
export type ReturnResult = 'debited' | 'credited' | 'recorded' | 'duplicate';

const refundRank: Record<string, number> = { pending: 0, succeeded: 1, failed: 2, canceled: 2 };
const disputeRank: Record<string, number> = { opened: 0, lost: 1, won: 2 };

/**
 * The status a refund or dispute moves to when the provider says `incoming` (null: no change).
 * Statuses only move forward, so events in any order end in the same place: a refund goes
 * pending → succeeded → failed | canceled (failed and canceled are final; a failure may follow a
 * success, as Stripe documents); a dispute goes opened → lost → won (won is final: money reinstated
 * after a loss comes back too), so an "opened" heard after the outcome changes nothing.
 */
export function nextStatus(
  kind: ReturnKind,
  current: ReturnStatus | null,
  incoming: ReturnStatus,
): ReturnStatus | null {
  const rank = kind === 'refund' ? refundRank : disputeRank;
  if (rank[incoming] === undefined) return null;
  if (current === null) return incoming;
  if (incoming === current) return null;
  if (kind === 'refund' && (current === 'failed' || current === 'canceled')) return null;
  return rank[incoming]! > rank[current]! ? incoming : null;
}

/** Whether a refund or dispute in this status keeps the money away from the balance. */
export const takesMoney = (kind: ReturnKind, status: ReturnStatus): boolean =>
  kind === 'refund'
    ? status === 'pending' || status === 'succeeded'
    : status === 'opened' || status === 'lost';

/**
 * The part of an order's bonus that goes with `returned` of its money (refunds and chargebacks in
 * effect): bonus × min(returned, amount) / amount, rounded down, in integers. Every debit or credit
 * of a refund or dispute moves the bonus taken so far to exactly this, so partial refunds take the
 * bonus in proportion, a full refund takes all of it (as the operator's refund always did), and the
 * rounding never adds up to more than the bonus.
 */
export function bonusShare(order: Pick<OrderRow, 'amount' | 'bonus'>, returned: number): Minor {
  if (order.bonus <= 0 || returned <= 0) return minor(0);
  const capped = BigInt(Math.min(returned, order.amount));
  return minor(Number((BigInt(order.bonus) * capped) / BigInt(order.amount)));
}

const billTypeOf = (kind: ReturnKind, reversal: boolean) =>
  kind === 'refund'
    ? reversal
      ? constants.billTypes.refundReversed
      : constants.billTypes.topUpRefund
    : reversal
      ? constants.billTypes.chargebackReversed
      : constants.billTypes.chargeback;

const inEffect = (r: ReturnRow) => r.debitBill !== null && r.reversalBill === null;

/**
 * Money going back (issue 18 §3): a provider's refunds and disputes of a top-up, and the operator's
 * refunds, each one row (returnsRepo) and at most two bills. Everything runs under the order's row
 * lock, so concurrent and replayed events of one order take turns, and the money always follows the
 * rows: `settle` writes what the statuses call for and nothing else, whatever came before.
 */
export function createPaymentReturns(deps: { db: Database; log: FastifyBaseLogger }) {
  const { db } = deps;
  const log = deps.log.child({ area: 'payments' });

  /**
   * Within a transaction holding the order's lock: the bills the order's refunds and disputes call
   * for. Nothing before the order is paid (a refund heard before its payment waits for it). A refund
   * takes money while pending or succeeded, a dispute while opened or lost; one that stops (a refund
   * failed or canceled, a dispute won) gives it back once. A refund larger than what is left to
   * refund is not debited (logged): the provider never refunds more than was paid, so it is a refund
   * told twice under two ids.
   */
  async function settle(tx: Tx, order: OrderRow): Promise<{ debits: number; credits: number }> {
    const moved = { debits: 0, credits: 0 };
    if (order.status !== 'paid') return moved;
    const rows = await returnsRepo.ofOrder(tx, order.id);
    let returned = 0;
    let refunded = 0;
    let bonusNet = 0;
    for (const r of rows) {
      if (inEffect(r)) {
        returned += r.amount;
        if (r.kind === 'refund') refunded += r.amount;
      }
      bonusNet += r.bonusTaken - r.bonusReturned;
    }
    for (const r of rows) {
      const want = takesMoney(r.kind, r.status);
      if (want && r.debitBill === null && r.reversalBill === null) {
        if (r.kind === 'refund' && refunded + r.amount > order.amount) {
          if (!r.excess) {
            await returnsRepo.setExcess(tx, r.id, true);
            log.error(
              { orderId: order.id, refundId: r.returnId, amount: r.amount, refunded, paid: order.amount },
              'a refund larger than what is left of the payment: recorded, not debited',
            );
          }
          continue;
        }
        const bonus = bonusShare(order, returned + r.amount) - bonusNet;
        const { row } = await ledger.apply(tx, {
          accountId: order.accountId,
          type: billTypeOf(r.kind, false),
          charge: negMinor(addMinor(r.amount, minor(bonus))),
          options: billOptions(order, r, bonus),
          idempotencyKey: idemKey('pay-return', r.id, 'debit'),
        });
        await returnsRepo.setDebit(tx, r.id, row.id, minor(bonus));
        returned += r.amount;
        if (r.kind === 'refund') refunded += r.amount;
        bonusNet += bonus;
        moved.debits++;
      } else if (!want && inEffect(r)) {
        const bonus = bonusNet - bonusShare(order, returned - r.amount);
        const { row } = await ledger.apply(tx, {
          accountId: order.accountId,
          type: billTypeOf(r.kind, true),
          charge: addMinor(r.amount, minor(bonus)),
          options: billOptions(order, r, bonus),
          idempotencyKey: idemKey('pay-return', r.id, 'reversal'),
        });
        await returnsRepo.setReversal(tx, r.id, row.id, minor(bonus));
        returned -= r.amount;
        if (r.kind === 'refund') refunded -= r.amount;
        bonusNet -= bonus;
        moved.credits++;
      }
    }
    return moved;
  }

  /**
   * Within a transaction holding the order's lock: a refund or dispute of the order as told, its row
   * created or its status moved forward (no money: `settle` follows).
   */
  async function record(
    tx: Tx,
    provider: string,
    r: { kind: ReturnKind; returnId: string; status: ReturnStatus; amount: Minor; currency: string },
    orderId: number,
    origin: 'provider' | 'operator',
  ): Promise<void> {
    const existing = await returnsRepo.find(tx, provider, r.kind, r.returnId);
    if (!existing) {
      await returnsRepo.insert(tx, { provider, ...r, orderId, origin });
      return;
    }
    if (existing.orderId !== orderId)
      log.error(
        { returnId: r.returnId, orderId, recorded: existing.orderId },
        'a refund or dispute named for another order: kept with its first order',
      );
    if (existing.amount !== r.amount)
      log.warn(
        { returnId: r.returnId, recorded: existing.amount, now: r.amount },
        'a refund or dispute told with another amount: the first amount stands',
      );
    const next = nextStatus(r.kind, existing.status, r.status);
    if (next) await returnsRepo.setStatus(tx, existing.id, next);
  }

  return {
    settle,
    record,

    /**
     * A refund or dispute of `order` as the provider (or the operator) tells it: its row is created or
     * moved forward, the bills follow, and the notification is recorded, in one transaction under the
     * order's lock. The same refund or dispute told any number of times, in any order, by any number
     * of events at once, moves the money once.
     */
    async apply(
      provider: string,
      n: RefundNotification | DisputeNotification,
      order: OrderRow,
      origin: 'provider' | 'operator',
    ): Promise<ReturnResult> {
      const kind: ReturnKind = n.kind;
      const returnId = n.kind === 'refund' ? n.refundId : n.disputeId;
      return db.tx(async (tx) => {
        const locked = await paymentsRepo.lock(tx, order.id);
        if (!locked) throw new Error(`order ${order.id} vanished`);
        await record(
          tx,
          provider,
          { kind, returnId, status: n.status, amount: n.amount, currency: n.currency },
          order.id,
          origin,
        );
        const moved = await settle(tx, locked);
        const result: ReturnResult = moved.debits ? 'debited' : moved.credits ? 'credited' : 'recorded';
        const fresh = await paymentsRepo.recordEvent(tx, {
          provider,
          eventId: n.eventId,
          orderId: order.id,
          result: `${kind} ${n.status}: ${result}`,
          payload: n.payload,
          ...(origin === 'provider'
            ? {
                kind,
                ref: n.ref,
                paymentRef: n.paymentRef,
                objectId: returnId,
                status: n.status,
                amount: n.amount,
                currency: n.currency,
              }
            : {}),
        });
        if (moved.debits || moved.credits)
          log.info(
            { orderId: order.id, kind, returnId, status: n.status, ...moved },
            'money going back moved',
          );
        return !fresh && result === 'recorded' ? 'duplicate' : result;
      });
    },

    /** The refunds and disputes of an order as they stand (the operator's view). */
    ofOrder: (orderId: number) => returnsRepo.ofOrderRead(db.q, orderId),
    ofOrders: (orderIds: number[]) => returnsRepo.ofOrders(db.q, orderIds),
  };
}

export type PaymentReturns = ReturnType<typeof createPaymentReturns>;

function billOptions(order: OrderRow, r: ReturnRow, bonus: number) {
  return {
    amount: fromMinor(r.amount),
    gift: fromMinor(minor(bonus)),
    purchaseMethod: purchaseMethodOf(order.method),
    orderId: String(order.id),
    provider: r.provider,
    [r.kind === 'refund' ? 'refundId' : 'disputeId']: r.returnId,
  };
}

/** The payment-history `method` of an order's method (spec 001 §3 purchaseMethod values). */
export const purchaseMethodOf = (method: string): PaymentHistoryItem['method'] => {
  switch (method) {
    case 'creditCard':
      return 'creditCard';
    case 'wechatpay':
      return 'wechatpay';
    case 'alipay':
      return 'alipay';
    case 'unionpay':
      return 'UnionPay';
    case 'paypal':
      return 'paypal';
    default:
      return 'Crypto';
  }
};
