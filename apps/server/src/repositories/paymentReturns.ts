import { sql } from 'kysely';
import type { Minor } from '@numa/contract';
import type { Q, Tx } from '../db';

export type ReturnKind = 'refund' | 'dispute';
export type ReturnStatus = 'pending' | 'succeeded' | 'failed' | 'canceled' | 'opened' | 'won' | 'lost';

export interface ReturnRow {
  id: number;
  provider: string;
  kind: ReturnKind;
  returnId: string;
  orderId: number;
  amount: Minor;
  currency: string;
  status: ReturnStatus;
  origin: 'provider' | 'operator';
  debitBill: number | null;
  reversalBill: number | null;
  bonusTaken: Minor;
  bonusReturned: Minor;
  excess: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const cols = [
  'id',
  'provider',
  'kind',
  'return_id as returnId',
  'order_id as orderId',
  'amount',
  'currency',
  'status',
  'origin',
  'debit_bill as debitBill',
  'reversal_bill as reversalBill',
  'bonus_taken as bonusTaken',
  'bonus_returned as bonusReturned',
  'excess',
  'created_at as createdAt',
  'updated_at as updatedAt',
] as const;

/**
 * Refunds and disputes of top-ups (migration 065): one row each, written under the order's row lock
 * (paymentsRepo.lock), so the service's rules see and move them one at a time.
 */
export const returnsRepo = {
  async ofOrder(tx: Tx, orderId: number): Promise<ReturnRow[]> {
    return (await tx
      .selectFrom('payment_returns')
      .select(cols)
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute()) as ReturnRow[];
  },

  async ofOrderRead(q: Q, orderId: number): Promise<ReturnRow[]> {
    return (await q
      .selectFrom('payment_returns')
      .select(cols)
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute()) as ReturnRow[];
  },

  async find(tx: Tx, provider: string, kind: ReturnKind, returnId: string): Promise<ReturnRow | null> {
    return (
      ((await tx
        .selectFrom('payment_returns')
        .select(cols)
        .where('provider', '=', provider)
        .where('kind', '=', kind)
        .where('return_id', '=', returnId)
        .executeTakeFirst()) as ReturnRow | undefined) ?? null
    );
  },

  async insert(
    tx: Tx,
    r: {
      provider: string;
      kind: ReturnKind;
      returnId: string;
      orderId: number;
      amount: Minor;
      currency: string;
      status: ReturnStatus;
      origin: 'provider' | 'operator';
    },
  ): Promise<ReturnRow> {
    return (await tx
      .insertInto('payment_returns')
      .values({
        provider: r.provider,
        kind: r.kind,
        return_id: r.returnId,
        order_id: r.orderId,
        amount: r.amount,
        currency: r.currency,
        status: r.status,
        origin: r.origin,
      })
      .returning(cols)
      .executeTakeFirstOrThrow()) as ReturnRow;
  },

  async setStatus(tx: Tx, id: number, status: ReturnStatus): Promise<void> {
    await tx
      .updateTable('payment_returns')
      .set({ status, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
  },

  async setDebit(tx: Tx, id: number, billId: number, bonus: Minor): Promise<void> {
    await tx
      .updateTable('payment_returns')
      .set({ debit_bill: billId, bonus_taken: bonus, excess: false, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('debit_bill', 'is', null)
      .execute();
  },

  async setReversal(tx: Tx, id: number, billId: number, bonus: Minor): Promise<void> {
    await tx
      .updateTable('payment_returns')
      .set({ reversal_bill: billId, bonus_returned: bonus, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('reversal_bill', 'is', null)
      .execute();
  },

  async setExcess(tx: Tx, id: number, excess: boolean): Promise<void> {
    await tx.updateTable('payment_returns').set({ excess }).where('id', '=', id).execute();
  },

  /**
   * The refunds and disputes of some orders (the histories, the operator's list). The ids go as one
   * text parameter: a page of 1,000 top-ups is one statement text, not one parameter per order.
   */
  async ofOrders(q: Q, orderIds: number[]): Promise<ReturnRow[]> {
    if (!orderIds.length) return [];
    return (await q
      .selectFrom('payment_returns')
      .select(cols)
      .where('order_id', '=', sql<number>`ANY(string_to_array(${orderIds.join(',')}::text, ',')::bigint[])`)
      .orderBy('id')
      .execute()) as ReturnRow[];
  },

  /** A provider's refunds and disputes first heard of in [from, to). */
  async madeIn(q: Q, provider: string, from: Date, to: Date): Promise<ReturnRow[]> {
    return (await q
      .selectFrom('payment_returns')
      .select(cols)
      .where('provider', '=', provider)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('id')
      .execute()) as ReturnRow[];
  },

  async byIds(q: Q, provider: string, kind: ReturnKind, returnIds: string[]): Promise<ReturnRow[]> {
    if (!returnIds.length) return [];
    return (await q
      .selectFrom('payment_returns')
      .select(cols)
      .where('provider', '=', provider)
      .where('kind', '=', kind)
      .where('return_id', 'in', returnIds)
      .execute()) as ReturnRow[];
  },
};

/** What reconciliation reads of our side (orders, their bills, the stored notifications). */
export const reconcileRepo = {
  /** A provider's orders created in [from, to), or those of these checkouts or payments, with their credit bill. */
  async orders(
    q: Q,
    provider: string,
    range: { from: Date; to: Date } | { refs: string[] } | { paymentRefs: string[] },
  ) {
    if ('refs' in range && !range.refs.length) return [];
    if ('paymentRefs' in range && !range.paymentRefs.length) return [];
    let query = q
      .selectFrom('payment_orders as o')
      .leftJoin('ledger as l', (j) => j.on('l.idempotency_key', '=', sql<string>`'pay:' || o.id::text`))
      .select([
        'o.id',
        'o.provider_ref as ref',
        'o.payment_ref as paymentRef',
        'o.status',
        'o.amount',
        'o.bonus',
        'o.currency',
        'o.created_at as createdAt',
        'l.id as billId',
        'l.charge as billCharge',
      ])
      .where('o.provider', '=', provider);
    query =
      'refs' in range
        ? query.where('o.provider_ref', 'in', range.refs)
        : 'paymentRefs' in range
          ? query.where('o.payment_ref', 'in', range.paymentRefs)
          : query.where('o.created_at', '>=', range.from).where('o.created_at', '<', range.to);
    return query.orderBy('o.id').execute();
  },

  /** Orders by the provider's id of the payment. */
  async ordersByPaymentRef(q: Q, provider: string, paymentRefs: string[]) {
    if (!paymentRefs.length) return [];
    return q
      .selectFrom('payment_orders')
      .select(['id', 'provider_ref as ref', 'payment_ref as paymentRef'])
      .where('provider', '=', provider)
      .where('payment_ref', 'in', paymentRefs)
      .execute();
  },

  /** The charges of some bills (a return's debit and reversal). */
  async bills(q: Q, ids: number[]) {
    if (!ids.length) return [];
    return q.selectFrom('ledger').select(['id', 'charge']).where('id', 'in', ids).execute();
  },

  /** A provider's notifications received in [from, to), in our terms, oldest first. */
  async events(q: Q, provider: string, from: Date, to: Date) {
    return q
      .selectFrom('payment_events')
      .select([
        'event_id as eventId',
        'order_id as orderId',
        'result',
        'kind',
        'ref',
        'payment_ref as paymentRef',
        'object_id as objectId',
        'status',
        'amount',
        'currency',
        'created_at as createdAt',
      ])
      .where('provider', '=', provider)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .where('kind', 'is not', null)
      .orderBy('id')
      .execute();
  },
};
