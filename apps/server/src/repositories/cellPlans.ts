import type { Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import { rateSubquery } from './rates';

/** A plan of the catalogue with its price per validity type in one currency (null: not priced). */
export interface CellPlanRow {
  id: number;
  code: string;
  country: string;
  dataGb: number;
  unlimited: boolean;
  hotspotGb: number;
  intlCalls: boolean;
  prices: Record<1 | 2 | 3 | 4, Minor | null>;
}

export interface CellLineRow {
  id: number;
  accountId: number;
  planId: number;
  code: string;
  cardType: number;
  label: string;
  startsAt: Date;
  endsAt: Date;
  orderCount: number;
}

export interface CellOrderRow {
  id: number;
  orderNo: string;
  accountId: number;
  lineId: number;
  lineLabel: string;
  planId: number;
  code: string;
  cardType: number;
  validityType: number;
  planCount: number;
  days: number;
  amount: Minor;
  contactPhone: string;
  contactEmail: string | null;
  ledgerId: number;
  periodStart: Date;
  periodEnd: Date;
  createdAt: Date;
}

const orderQuery = (q: Q) =>
  q
    .selectFrom('cell_orders as o')
    .innerJoin('cell_plans as p', 'p.id', 'o.plan_id')
    .innerJoin('cell_lines as l', 'l.id', 'o.line_id')
    .select([
      'o.id',
      'o.order_no as orderNo',
      'o.account_id as accountId',
      'o.line_id as lineId',
      'l.label as lineLabel',
      'o.plan_id as planId',
      'p.code',
      'o.card_type as cardType',
      'o.validity_type as validityType',
      'o.plan_count as planCount',
      'o.days',
      'o.amount',
      'o.contact_phone as contactPhone',
      'o.contact_email as contactEmail',
      'o.ledger_id as ledgerId',
      'o.period_start as periodStart',
      'o.period_end as periodEnd',
      'o.created_at as createdAt',
    ]);

const lineQuery = (q: Q) =>
  q
    .selectFrom('cell_lines as l')
    .innerJoin('cell_plans as p', 'p.id', 'l.plan_id')
    .select((eb) => [
      'l.id',
      'l.account_id as accountId',
      'l.plan_id as planId',
      'p.code',
      'l.card_type as cardType',
      'l.label',
      'l.starts_at as startsAt',
      'l.ends_at as endsAt',
      eb
        .selectFrom('cell_orders as o')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('o.line_id', '=', 'l.id')
        .as('orderCount'),
    ]);

/** The embedded plans page's tables (migration 048): the catalogue, lines and orders. */
export const cellPlansRepo = {
  /** The active plans in catalogue order, each with its four validity prices in `currency`. */
  async plans(q: Q, currency: string): Promise<CellPlanRow[]> {
    const price = (vt: number) =>
      rateSubquery(q, {
        currency,
        kind: 'cell_plan',
        country: sql<string>`p.country`,
        variant: sql<string>`p.code || ${'_' + vt}`,
      });
    const rows = await q
      .selectFrom('cell_plans as p')
      .select([
        'p.id',
        'p.code',
        'p.country',
        'p.data_gb as dataGb',
        'p.unlimited',
        'p.hotspot_gb as hotspotGb',
        'p.intl_calls as intlCalls',
        price(1).as('p1'),
        price(2).as('p2'),
        price(3).as('p3'),
        price(4).as('p4'),
      ])
      .where('p.active', '=', true)
      .orderBy('p.sort')
      .execute();
    return rows.map(({ p1, p2, p3, p4, ...r }) => ({ ...r, prices: { 1: p1, 2: p2, 3: p3, 4: p4 } }));
  },

  async plan(q: Q, id: number) {
    return (
      (await q
        .selectFrom('cell_plans')
        .select(['id', 'code', 'country', 'active'])
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  },

  /** The account's verified phone (full number), e-mail and balance. */
  async contact(q: Q, accountId: number) {
    const r = await q
      .selectFrom('accounts')
      .select(['tel_code as telCode', 'phone', 'email', 'balance'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    return {
      phone: r?.phone && r.telCode ? `${r.telCode}${r.phone}` : null,
      email: r?.email ?? null,
      balance: (r?.balance ?? 0) as Minor,
    };
  },

  /** A line, locked for the caller's transaction (time is added to it). */
  async lockLine(tx: Tx, id: number) {
    return (
      (await tx
        .selectFrom('cell_lines')
        .select(['id', 'account_id as accountId', 'ends_at as endsAt'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst()) ?? null
    );
  },

  async insertLine(
    tx: Tx,
    l: { accountId: number; planId: number; cardType: number; label: string; startsAt: Date; endsAt: Date },
  ): Promise<number> {
    const r = await tx
      .insertInto('cell_lines')
      .values({
        account_id: l.accountId,
        plan_id: l.planId,
        card_type: l.cardType,
        label: l.label,
        starts_at: l.startsAt,
        ends_at: l.endsAt,
        created_at: l.startsAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  },

  /** A plan-only order: the line's plan becomes the ordered one and its paid time ends later. */
  async extendLine(tx: Tx, id: number, planId: number, endsAt: Date) {
    await tx
      .updateTable('cell_lines')
      .set({ plan_id: planId, ends_at: endsAt })
      .where('id', '=', id)
      .execute();
  },

  async insertOrder(
    tx: Tx,
    o: {
      orderNo: string;
      accountId: number;
      lineId: number;
      planId: number;
      cardType: number;
      validityType: number;
      planCount: number;
      days: number;
      amount: Minor;
      contactPhone: string;
      contactEmail: string | null;
      ledgerId: number;
      periodStart: Date;
      periodEnd: Date;
      createdAt: Date;
    },
  ) {
    await tx
      .insertInto('cell_orders')
      .values({
        order_no: o.orderNo,
        account_id: o.accountId,
        line_id: o.lineId,
        plan_id: o.planId,
        card_type: o.cardType,
        validity_type: o.validityType,
        plan_count: o.planCount,
        days: o.days,
        amount: o.amount,
        contact_phone: o.contactPhone,
        contact_email: o.contactEmail,
        ledger_id: o.ledgerId,
        period_start: o.periodStart,
        period_end: o.periodEnd,
        created_at: o.createdAt,
      })
      .execute();
  },

  async orderByLedger(q: Q, ledgerId: number): Promise<CellOrderRow | null> {
    return (await orderQuery(q).where('o.ledger_id', '=', ledgerId).executeTakeFirst()) ?? null;
  },

  async orderByNo(q: Q, orderNo: string): Promise<CellOrderRow | null> {
    return (await orderQuery(q).where('o.order_no', '=', orderNo).executeTakeFirst()) ?? null;
  },

  async orders(q: Q, accountId: number, limit: number, offset: number) {
    const [rows, total] = await Promise.all([
      orderQuery(q)
        .where('o.account_id', '=', accountId)
        .orderBy('o.created_at', 'desc')
        .orderBy('o.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      q
        .selectFrom('cell_orders')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as CellOrderRow[], total: total.n };
  },

  async lines(q: Q, accountId: number): Promise<CellLineRow[]> {
    return (await lineQuery(q)
      .where('l.account_id', '=', accountId)
      .orderBy('l.created_at', 'desc')
      .orderBy('l.id', 'desc')
      .execute()) as CellLineRow[];
  },

  async line(q: Q, id: number): Promise<CellLineRow | null> {
    return (
      ((await lineQuery(q).where('l.id', '=', id).executeTakeFirst()) as CellLineRow | undefined) ?? null
    );
  },

  /** Renames a line of the account; false when it is not the account's. */
  async rename(q: Q, accountId: number, id: number, label: string): Promise<boolean> {
    const r = await q
      .updateTable('cell_lines')
      .set({ label })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },
};
