import { sql } from 'kysely';
import { BillOptions, constants, type Minor } from '@numa/contract';
import type { Q, Tx } from '../db';
import { monthPage } from './historyCounts';
import { cursorPages, epochMsSql, moneySql, type CursorPageValues } from './jsonPage';

export type OrderStatus = 'pending' | 'paid' | 'failed' | 'cancelled' | 'expired';

export interface OrderRow {
  id: number;
  accountId: number;
  brand: string;
  method: string;
  provider: string;
  productId: string;
  currency: string;
  amount: Minor;
  bonus: Minor;
  status: OrderStatus;
  providerRef: string;
  returnUrl: string | null;
  crypto: Record<string, unknown> | null;
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
  closedAt: Date | null;
  refundedAt: Date | null;
  paymentRef: string | null;
}

const orderCols = [
  'id',
  'account_id as accountId',
  'brand',
  'method',
  'provider',
  'product_id as productId',
  'currency',
  'amount',
  'bonus',
  'status',
  'provider_ref as providerRef',
  'return_url as returnUrl',
  'crypto',
  'created_at as createdAt',
  'expires_at as expiresAt',
  'paid_at as paidAt',
  'closed_at as closedAt',
  'refunded_at as refundedAt',
  'payment_ref as paymentRef',
] as const;

export interface NewOrder {
  accountId: number;
  brand: string;
  method: string;
  provider: string;
  productId: string;
  currency: string;
  amount: Minor;
  bonus: Minor;
  providerRef: string;
  returnUrl: string | null;
  crypto: Record<string, unknown> | null;
  expiresAt: Date;
}

/** A provider notification as recorded: its result, and what it says in our terms (migration 065). */
export interface NewEvent {
  provider: string;
  eventId: string;
  orderId: number | null;
  result: string;
  payload: Record<string, unknown>;
  kind?: 'payment' | 'refund' | 'dispute';
  ref?: string | undefined;
  paymentRef?: string | undefined;
  /** the refund or dispute id */
  objectId?: string | undefined;
  status?: string;
  amount?: Minor;
  currency?: string;
}

/** Top-up orders and the provider notifications that settle them (migrations 015, 065). */
export const paymentsRepo = {
  /**
   * Locks the account's row for the rest of the transaction: the submits of one account queue here,
   * so counting today's attempts and adding one is never raced past the daily limit.
   */
  async lockAccount(tx: Tx, accountId: number): Promise<boolean> {
    const row = await tx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', accountId)
      .forUpdate()
      .executeTakeFirst();
    return !!row;
  },

  async countSince(tx: Tx, accountId: number, since: Date): Promise<number> {
    const row = await tx
      .selectFrom('payment_orders')
      .select((s) => s.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insert(tx: Tx, o: NewOrder): Promise<OrderRow> {
    return tx
      .insertInto('payment_orders')
      .values({
        account_id: o.accountId,
        brand: o.brand,
        method: o.method,
        provider: o.provider,
        product_id: o.productId,
        currency: o.currency,
        amount: o.amount,
        bonus: o.bonus,
        provider_ref: o.providerRef,
        return_url: o.returnUrl,
        crypto: o.crypto ? JSON.stringify(o.crypto) : null,
        expires_at: o.expiresAt,
      })
      .returning(orderCols)
      .executeTakeFirstOrThrow() as Promise<OrderRow>;
  },

  async setProviderRef(
    q: Q,
    id: number,
    providerRef: string,
    crypto?: Record<string, unknown>,
  ): Promise<void> {
    await q
      .updateTable('payment_orders')
      .set({ provider_ref: providerRef, ...(crypto ? { crypto: JSON.stringify(crypto) } : {}) })
      .where('id', '=', id)
      .execute();
  },

  async byId(q: Q, id: number): Promise<OrderRow | null> {
    return (
      ((await q.selectFrom('payment_orders').select(orderCols).where('id', '=', id).executeTakeFirst()) as
        OrderRow | undefined) ?? null
    );
  },

  async byRef(q: Q, provider: string, ref: string): Promise<OrderRow | null> {
    return (
      ((await q
        .selectFrom('payment_orders')
        .select(orderCols)
        .where('provider', '=', provider)
        .where('provider_ref', '=', ref)
        .executeTakeFirst()) as OrderRow | undefined) ?? null
    );
  },

  /** The order a payment belongs to, by the provider's id of the payment (recorded when it was paid). */
  async byPaymentRef(q: Q, provider: string, paymentRef: string): Promise<OrderRow | null> {
    return (
      ((await q
        .selectFrom('payment_orders')
        .select(orderCols)
        .where('provider', '=', provider)
        .where('payment_ref', '=', paymentRef)
        .executeTakeFirst()) as OrderRow | undefined) ?? null
    );
  },

  /** Reads and locks an order for the rest of the transaction: its payment, refunds and disputes queue here. */
  async lock(tx: Tx, id: number): Promise<OrderRow | null> {
    return (
      ((await tx
        .selectFrom('payment_orders')
        .select(orderCols)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst()) as OrderRow | undefined) ?? null
    );
  },

  /**
   * pending (or failed, cancelled, expired: the money arrived after all) → paid, with the provider's id
   * of the payment when given. Only one caller gets the row back; every other concurrent or later call
   * gets null.
   */
  async markPaid(tx: Tx, id: number, at: Date, paymentRef?: string): Promise<OrderRow | null> {
    return (
      ((await tx
        .updateTable('payment_orders')
        .set((eb) => ({
          status: 'paid',
          paid_at: at,
          closed_at: at,
          payment_ref: paymentRef ? eb.fn.coalesce('payment_ref', eb.val(paymentRef)) : eb.ref('payment_ref'),
        }))
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'failed', 'cancelled', 'expired'])
        .returning(orderCols)
        .executeTakeFirst()) as OrderRow | undefined) ?? null
    );
  },

  /** Records the provider's id of the payment of an order that has none yet. */
  async setPaymentRef(tx: Tx, id: number, paymentRef: string): Promise<void> {
    await tx
      .updateTable('payment_orders')
      .set({ payment_ref: paymentRef })
      .where('id', '=', id)
      .where('payment_ref', 'is', null)
      .execute();
  },

  /** pending → failed | cancelled | expired; null when it was not pending. */
  async close(
    q: Q,
    id: number,
    status: 'failed' | 'cancelled' | 'expired',
    at: Date,
  ): Promise<OrderRow | null> {
    return (
      ((await q
        .updateTable('payment_orders')
        .set({ status, closed_at: at })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returning(orderCols)
        .executeTakeFirst()) as OrderRow | undefined) ?? null
    );
  },

  /** Every pending order past its time, closed as expired; returns how many. */
  async expireDue(q: Q, now: Date): Promise<number> {
    const rows = await q
      .updateTable('payment_orders')
      .set({ status: 'expired', closed_at: now })
      // a literal: the partial index of pending orders by expiry stays usable by the generic plan
      .where('status', '=', sql.lit('pending'))
      .where('expires_at', '<=', now)
      .returning('id')
      .execute();
    return rows.length;
  },

  /** Records a provider event once: false when its id was seen before (nothing else happens then). */
  async recordEvent(tx: Tx, e: NewEvent): Promise<boolean> {
    const row = await tx
      .insertInto('payment_events')
      .values({
        provider: e.provider,
        event_id: e.eventId,
        order_id: e.orderId,
        result: e.result,
        payload: JSON.stringify(e.payload),
        kind: e.kind ?? null,
        ref: e.ref ?? null,
        payment_ref: e.paymentRef ?? null,
        object_id: e.objectId ?? null,
        status: e.status ?? null,
        amount: e.amount ?? null,
        currency: e.currency ?? null,
      })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return !!row;
  },

  /**
   * Refunds and disputes told of a payment before any order of ours was known to have it (recorded
   * with no order), oldest first: the payment's order takes them when its payment id is learnt.
   */
  async orphanReturnEvents(tx: Tx, provider: string, paymentRef: string) {
    return tx
      .selectFrom('payment_events')
      .select(['id', 'event_id as eventId', 'kind', 'object_id as objectId', 'status', 'amount', 'currency'])
      .where('provider', '=', provider)
      .where('payment_ref', '=', paymentRef)
      .where('order_id', 'is', null)
      .where('kind', 'in', ['refund', 'dispute'])
      .orderBy('id')
      .forUpdate()
      .execute();
  },

  /** Gives recorded events (orphans adopted) their order. */
  async attachEvents(tx: Tx, ids: number[], orderId: number): Promise<void> {
    if (!ids.length) return;
    await tx.updateTable('payment_events').set({ order_id: orderId }).where('id', 'in', ids).execute();
  },

  async eventsOf(q: Q, orderId: number) {
    return q
      .selectFrom('payment_events')
      .select(['event_id as eventId', 'result', 'created_at as createdAt'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  },

  /** The operator's list: newest first, optionally one account's or one status. */
  async list(q: Q, f: { accountId?: number; status?: string; limit: number }): Promise<OrderRow[]> {
    let query = q.selectFrom('payment_orders').select(orderCols).orderBy('id', 'desc').limit(f.limit);
    if (f.accountId !== undefined) query = query.where('account_id', '=', f.accountId);
    if (f.status) query = query.where('status', '=', f.status);
    return (await query.execute()) as OrderRow[];
  },
};

/** Bills of a month for the histories (the ledger, read-only). */
/**
 * The payment history's bill types (recharge, invite and redeem bonuses), credits only; migration 170
 * counts the same rows per month (its trigger names the same types).
 */
export const paymentHistoryTypes = [
  constants.billTypes.recharge,
  constants.billTypes.inviteBonus,
  constants.billTypes.redeemBonus,
];

/**
 * The account's histories by month, newest first (created_at, then id), each page read in the order
 * of an index (migration 170) and the page-numbered ones' totals kept rather than counted.
 */
export const historyRepo = {
  /**
   * Recharges, invite and redeem bonuses of [from, to): a page of the payment history as the
   * contract's PaymentHistoryItem[] in JSON text (`list`), with the month's total. Each top-up says
   * how it stands after its refunds and disputes: `refunded` (the refunds debited and not reversed)
   * and `dispute` (its latest dispute: open, won or lost), each only when there is one.
   */
  payments(q: Q, accountId: number, from: Date, to: Date, limit: number, offset: number) {
    return paymentPage(q, { accountId, from, to, limit, offset });
  },

  /** The month's bills, newest first, after the cursor (the id of the previous page's last bill). */
  bills(q: Q, accountId: number, from: Date, to: Date, beforeId: number | null, limit: number) {
    return billRows(q, accountId, from, to, beforeId)
      .select([
        'id',
        'type',
        'charge',
        'before_balance as beforeBalance',
        'after_balance as afterBalance',
        'options',
        'created_at as createdAt',
      ])
      .limit(limit)
      .execute();
  },

  /**
   * A page of the month's bills after the cursor, as the contract's BillItem[] in JSON text (`list`),
   * and the next page's cursor when another page follows. A bill's options keep only the contract's
   * keys (`BillOptions`; other areas keep more there for themselves).
   */
  billPage(q: Q, p: CursorPageValues) {
    return billPages(q, p);
  },

  /**
   * A page of the month's SMS and MMS (not deleted), newest first, as the contract's SmsRecord[] in
   * JSON text (`list`), with the month's total.
   */
  messages(q: Q, accountId: number, from: Date, to: Date, limit: number, offset: number) {
    return smsPage(q, { accountId, from, to, limit, offset });
  },
};

const paymentPage = monthPage(
  'payment',
  (q, p) => {
    const t = constants.billTypes;
    const recharge = sql.lit(t.recharge);
    const page = q
      .selectFrom('ledger')
      .select([
        'id',
        'type',
        'charge',
        'options',
        'created_at',
        // a top-up's order (the ledger row's options keep its id as text)
        sql<number | null>`CASE WHEN type = ${recharge} AND options->>'orderId' ~ '^[0-9]{1,15}$'
                                THEN (options->>'orderId')::bigint END`.as('order_id'),
      ])
      .where('account_id', '=', p.accountId)
      // literals, not parameters: the partial index of the payment history (these types, credits
      // only; migration 170) stays usable by the statement's generic plan
      .where(sql<boolean>`type IN (${sql.join(paymentHistoryTypes.map((t) => sql.lit(t)))})`)
      .where('charge', '>', sql.lit(0 as Minor))
      .where('created_at', '>=', p.from)
      .where('created_at', '<', p.to)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit)
      .offset(p.offset);
    const methods = sql.join(constants.purchaseMethods.map((m) => sql.lit(m)));
    // the refunds and disputes of the page's top-ups only (after the page's limit), joined by order
    return sql`(
      WITH l AS (${page}),
      back AS (
        SELECT order_id,
               nullif(sum(amount) FILTER (WHERE kind = 'refund' AND debit_bill IS NOT NULL
                                            AND reversal_bill IS NULL), 0) AS refunded,
               (array_agg(status ORDER BY id DESC) FILTER (WHERE kind = 'dispute'))[1] AS dispute
          FROM payment_returns
         WHERE order_id IN (SELECT order_id FROM l)
         GROUP BY order_id
      )
      SELECT l.id::text AS _id,
             CASE WHEN l.type <> ${recharge} THEN 'invite'
                  WHEN l.options->>'purchaseMethod' IN (${methods}) THEN l.options->>'purchaseMethod'
                  ELSE 'creditCard' END AS method,
             CASE WHEN l.type = ${recharge}
                  THEN coalesce((l.options->>'amount')::float8, ${moneySql(sql.ref('l.charge'))})
                  ELSE ${moneySql(sql.ref('l.charge'))} END AS amount,
             CASE WHEN l.type = ${recharge} THEN coalesce((l.options->>'gift')::float8, 0) ELSE 0 END AS gifts,
             ${epochMsSql(sql.ref('l.created_at'))} AS date,
             ${moneySql(sql.ref('back.refunded'))} AS refunded,
             CASE WHEN back.dispute IS NULL THEN NULL WHEN back.dispute IN ('won', 'lost') THEN back.dispute
                  ELSE 'open' END AS dispute
        FROM l LEFT JOIN back ON back.order_id = l.order_id
    )`;
  },
  { stripNulls: true },
);

const smsPage = monthPage('sms', (q, p) => {
  const out = sql<boolean>`direction = 'out'`;
  return (
    q
      .selectFrom('messages')
      .select([
        sql<string>`id::text`.as('_id'),
        'direction',
        sql<string>`CASE WHEN ${out} THEN other_full_number ELSE own_full_number END`.as('toNumber'),
        sql<string>`CASE WHEN ${out} THEN own_full_number ELSE other_full_number END`.as('fromNumber'),
        'date',
        moneySql(sql.ref('charge')).as('charge'),
        'type',
        'text',
      ])
      .where('account_id', '=', p.accountId)
      // a literal, not a parameter: the partial index of the SMS history (NOT deleted, migration 170)
      // stays usable by the statement's generic plan
      .where('deleted', '=', sql.lit(false))
      .where('date', '>=', p.fromMs)
      .where('date', '<', p.toMs)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit)
      .offset(p.offset)
  );
});

/** The contract's bill options (BillOptions): the keys a bill shows, read from its schema. */
const billOptionKeys = sql.join(Object.keys(BillOptions.shape).map((k) => sql.lit(k)));
const billPages = cursorPages<CursorPageValues>((q, p, after) =>
  billRows(q, p.accountId, p.from, p.to, after ? p.before : null)
    .select([
      sql<string>`id::text`.as('_id'),
      'type',
      moneySql(sql.ref('charge')).as('charge'),
      moneySql(sql.ref('before_balance')).as('beforeBalance'),
      moneySql(sql.ref('after_balance')).as('afterBalance'),
      epochMsSql(sql.ref('created_at')).as('date'),
      sql<Record<string, unknown>>`(SELECT coalesce(jsonb_object_agg(o.key, o.value), '{}')
                                      FROM jsonb_each(coalesce(options, '{}')) o WHERE o.key IN (${billOptionKeys}))`.as(
        'options',
      ),
    ])
    .limit(p.limit),
);

/** The month's bills of an account, newest first, after the cursor's bill (none: from the newest). */
function billRows(q: Q, accountId: number, from: Date, to: Date, beforeId: number | null) {
  let query = q
    .selectFrom('ledger')
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  // after the cursor's bill in the page order (a cursor not of this account's: nothing)
  if (beforeId !== null)
    query = query.where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('created_at', 'id'),
        '<',
        selectFrom('ledger as c')
          .select(['c.created_at', 'c.id'])
          .where('c.id', '=', beforeId)
          .where('c.account_id', '=', accountId)
          .$asTuple('created_at', 'id'),
      ),
    );
  return query;
}

/** The sandbox provider's own records (providers/payments/sandbox.ts). */
export const sandboxRepo = {
  async create(
    q: Q,
    c: {
      ref: string;
      brand: string;
      description: string;
      amount: Minor;
      currency: string;
      notifyUrl: string;
      crypto: Record<string, unknown> | null;
      returnUrl: string | null;
    },
  ) {
    await q
      .insertInto('payment_sandbox_checkouts')
      .values({
        ref: c.ref,
        brand: c.brand,
        description: c.description,
        amount: c.amount,
        currency: c.currency,
        notify_url: c.notifyUrl,
        crypto: c.crypto ? JSON.stringify(c.crypto) : null,
        return_url: c.returnUrl,
      })
      .execute();
  },

  async get(q: Q, ref: string) {
    return (
      (await q
        .selectFrom('payment_sandbox_checkouts')
        .select([
          'ref',
          'brand',
          'description',
          'amount',
          'currency',
          'notify_url as notifyUrl',
          'crypto',
          'return_url as returnUrl',
          'status',
          'last_event as lastEvent',
        ])
        .where('ref', '=', ref)
        .executeTakeFirst()) ?? null
    );
  },

  /** open → status, with the notification it sends; false when it was not open. */
  async settle(
    q: Q,
    ref: string,
    status: 'paid' | 'failed' | 'cancelled',
    event: Record<string, unknown> | null,
  ): Promise<boolean> {
    const row = await q
      .updateTable('payment_sandbox_checkouts')
      .set({ status, last_event: event ? JSON.stringify(event) : null, updated_at: sql<Date>`now()` })
      .where('ref', '=', ref)
      .where('status', '=', 'open')
      .returning('ref')
      .executeTakeFirst();
    return !!row;
  },
};
