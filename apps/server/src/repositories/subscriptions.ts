import { constants, type Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import { monthPage, type MonthPageValues } from './historyCounts';
import { epochMsSql, moneySql } from './jsonPage';
import { startOfIso } from '../lib/dates';
import { rateSubquery } from './rates';

/** A plan of the catalogue with its price in one currency (null: not priced in it). */
export interface PlanRow {
  id: number;
  country: string;
  kind: string;
  group: string;
  period: 'month' | 'quarter' | 'year';
  chargeType: number;
  canForward: boolean;
  canVoicemail: boolean;
  activationFee: Minor;
  active: boolean;
  price: Minor | null;
}

export interface HistoryRow {
  id: number;
  accountId: number;
  telCode: string;
  number: string;
  fullNumber: string;
  type: number;
  charge: Minor;
  planId: number | null;
  resDate: string | null;
  restored: boolean;
  createdAt: Date;
}

export interface SubscriptionRow {
  numberId: number;
  accountId: number;
  telCode: string;
  number: string;
  fullNumber: string;
  country: string;
  tollFree: boolean;
  planId: number;
  pendingPlanId: number | null;
  autoRenew: boolean;
  /** ISO date of the next rent */
  paymentDate: string;
  graceSince: string | null;
  /** plan changes made now so far: the next one's key (migration 071) */
  changes: number;
}

const planQuery = (q: Q, currency: string) =>
  q.selectFrom('plans as p').select((eb) => [
    'p.id',
    'p.country',
    'p.kind',
    'p.plan_group as group',
    eb.ref('p.period').$castTo<PlanRow['period']>().as('period'),
    'p.charge_type as chargeType',
    'p.can_forward as canForward',
    'p.can_voicemail as canVoicemail',
    'p.activation_fee as activationFee',
    'p.active',
    rateSubquery(q, {
      currency,
      kind: 'plan',
      country: eb.ref('p.country'),
      variant: sql<string>`p.plan_group || '_' || p.period`,
    }).as('price'),
  ]);

/** A rented number's history entry (rental_history of kind number, migration 150). */
const historyCols = [
  'id',
  'account_id as accountId',
  sql<string>`tel_code`.as('telCode'),
  sql<string>`number`.as('number'),
  'full_number as fullNumber',
  'type',
  'charge',
  'plan_id as planId',
  sql<string | null>`to_char(res_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('resDate'),
  'restored',
  'created_at as createdAt',
] as const;

/** A rented number's subscription: its rental (kind number) with the number. */
const subQuery = (q: Q) =>
  q
    .selectFrom('rentals as s')
    .innerJoin('virtual_numbers as v', 'v.id', 's.number_id')
    .select([
      'v.id as numberId',
      's.account_id as accountId',
      'v.tel_code as telCode',
      'v.number',
      'v.full_number as fullNumber',
      'v.country',
      'v.toll_free as tollFree',
      sql<number>`s.plan_id`.as('planId'),
      's.pending_plan_id as pendingPlanId',
      's.auto_renew as autoRenew',
      sql<string>`to_char(v.payment_date, 'YYYY-MM-DD')`.as('paymentDate'),
      sql<string | null>`to_char(s.grace_since, 'YYYY-MM-DD')`.as('graceSince'),
      's.changes',
    ]);

/** The rented numbers' SQL: plans, the rentals of kind number with their numbers, their history (migration 150). */
export const subscriptionsRepo = {
  plans(q: Q, currency: string, p: { country: string; kind: string }): Promise<PlanRow[]> {
    return planQuery(q, currency)
      .where('p.country', '=', p.country)
      .where('p.kind', '=', p.kind)
      .where('p.active', '=', true)
      .orderBy('p.sort')
      .execute();
  },

  async plan(q: Q, currency: string, id: number): Promise<PlanRow | null> {
    return (await planQuery(q, currency).where('p.id', '=', id).executeTakeFirst()) ?? null;
  },

  /** Which of these full numbers are held by an account on the platform. */
  async held(q: Q, fullNumbers: readonly string[]): Promise<Set<string>> {
    if (!fullNumbers.length) return new Set();
    const rows = await q
      .selectFrom('virtual_numbers')
      .select('full_number')
      .where('full_number', 'in', fullNumbers)
      .execute();
    return new Set(rows.map((r) => r.full_number));
  },

  /** The rental of a number just rented (or restored), due on its payment date (ISO). */
  async insertSubscription(
    tx: Tx,
    s: { numberId: number; accountId: number; planId: number; paymentDate: string; at: Date },
  ): Promise<void> {
    await tx
      .insertInto('rentals')
      .values({
        number_id: s.numberId,
        account_id: s.accountId,
        plan_id: s.planId,
        valid_until: new Date(startOfIso(s.paymentDate)),
        started_at: s.at,
      })
      .execute();
  },

  async insertHistory(
    tx: Tx,
    h: {
      accountId: number;
      telCode: string;
      number: string;
      type: number;
      charge: Minor;
      planId: number | null;
      ledgerId: number | null;
      resDate?: string | null;
      createdAt: Date;
    },
  ): Promise<HistoryRow> {
    return tx
      .insertInto('rental_history')
      .values({
        account_id: h.accountId,
        tel_code: h.telCode,
        number: h.number,
        full_number: h.telCode + h.number,
        type: h.type,
        charge: h.charge,
        plan_id: h.planId,
        ledger_id: h.ledgerId,
        res_at: h.resDate ? new Date(startOfIso(h.resDate)) : null,
        created_at: h.createdAt,
      })
      .returning(historyCols)
      .executeTakeFirstOrThrow();
  },

  /** The account's latest history entry of a type for a number (a double submit's first answer). */
  async lastHistory(q: Q, accountId: number, fullNumber: string, type: number): Promise<HistoryRow | null> {
    return (
      (await q
        .selectFrom('rental_history')
        .select(historyCols)
        .where('kind', '=', 'number')
        .where('account_id', '=', accountId)
        .where('full_number', '=', fullNumber)
        .where('type', '=', type)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()) ?? null
    );
  },

  async history(q: Q, accountId: number, id: number): Promise<HistoryRow | null> {
    return (
      (await q
        .selectFrom('rental_history')
        .select(historyCols)
        .where('kind', '=', 'number')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  },

  /** A number's latest reclaim (type 100) not yet restored, on any account. */
  async lastExpired(q: Q, fullNumber: string): Promise<HistoryRow | null> {
    return (
      (await q
        .selectFrom('rental_history')
        .select(historyCols)
        .where('kind', '=', 'number')
        .where('full_number', '=', fullNumber)
        .where('type', '=', 100)
        .where('restored', '=', false)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()) ?? null
    );
  },

  /** Marks a type-100 entry restored, once (false when it already was). */
  async markRestored(tx: Tx, id: number): Promise<boolean> {
    const r = await tx
      .updateTable('rental_history')
      .set({ restored: true })
      .where('id', '=', id)
      .where('restored', '=', false)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /**
   * A page of the account's history in [from, to), newest first, as the contract's
   * SubscriptionHistoryEntry[] in JSON text (`list`), with the month's total (kept per month by the
   * table's triggers, migration 170). `resDate` is the day a reclaimed number can be restored until,
   * while it can be.
   */
  historyPage(q: Q, p: MonthPageValues) {
    return numberHistoryPage(q, p);
  },

  /** One of the account's subscriptions by its full number (null: not the account's). */
  async ofNumber(q: Q, accountId: number, fullNumber: string): Promise<SubscriptionRow | null> {
    return (
      (await subQuery(q)
        .where('s.account_id', '=', accountId)
        .where('v.full_number', '=', fullNumber)
        .executeTakeFirst()) ?? null
    );
  },

  /**
   * A subscription locked for its renewal or plan change (FOR UPDATE of the number's and the
   * subscription's rows, not the account's), with its account's brand (the currency of its price).
   */
  async lockForRenewal(tx: Tx, numberId: number): Promise<(SubscriptionRow & { brand: string }) | null> {
    return (
      (await subQuery(tx)
        .innerJoin('accounts as a', 'a.id', 's.account_id')
        .select('a.brand')
        .where('s.number_id', '=', numberId)
        .forUpdate(['s', 'v'])
        .executeTakeFirst()) ?? null
    );
  },

  /** The numbers of an account that will not renew (unsubscribed: released on their payment date). */
  async notRenewing(q: Q, accountId: number): Promise<Set<number>> {
    const rows = await q
      .selectFrom('rentals')
      .select('number_id as numberId')
      .where('account_id', '=', accountId)
      .where('number_id', 'is not', null)
      .where('auto_renew', '=', false)
      .execute();
    return new Set(rows.map((r) => r.numberId!));
  },

  async setAutoRenew(q: Q, numberId: number, autoRenew: boolean): Promise<void> {
    await q.updateTable('rentals').set({ auto_renew: autoRenew }).where('number_id', '=', numberId).execute();
  },

  /**
   * After a paid renewal or plan change: the plan, the next rent date and rent, no pending change or
   * grace; a plan change made now (`changed`) also counts one more change (the next one's key).
   */
  async renewed(
    tx: Tx,
    p: {
      numberId: number;
      planId: number;
      paymentDate: string;
      monthRent: Minor;
      pendingPlanId?: number | null;
      changed?: boolean;
    },
  ): Promise<void> {
    // one statement: the number's row, then its subscription's
    await tx
      .with('v', (w) =>
        w
          .updateTable('virtual_numbers')
          .set({ plan_id: p.planId, payment_date: p.paymentDate, month_rent: p.monthRent })
          .where('id', '=', p.numberId)
          .returning('id'),
      )
      .updateTable('rentals')
      .set((eb) => ({
        plan_id: p.planId,
        valid_until: new Date(startOfIso(p.paymentDate)),
        pending_plan_id: p.pendingPlanId ?? null,
        grace_since: null,
        ...(p.changed ? { changes: eb('changes', '+', 1) } : {}),
      }))
      .where('number_id', 'in', (eb) => eb.selectFrom('v').select('v.id'))
      .execute();
  },

  async setPending(q: Q, numberId: number, pendingPlanId: number | null): Promise<void> {
    await q
      .updateTable('rentals')
      .set({ pending_plan_id: pendingPlanId })
      .where('number_id', '=', numberId)
      .execute();
  },

  async startGrace(tx: Tx, numberId: number, since: string): Promise<void> {
    await tx
      .updateTable('rentals')
      .set({ grace_since: since })
      .where('number_id', '=', numberId)
      .where('grace_since', 'is', null)
      .execute();
  },

  /** Removes a number from its account (its rental goes with it). */
  async releaseNumber(tx: Tx, numberId: number): Promise<void> {
    await tx.deleteFrom('virtual_numbers').where('id', '=', numberId).execute();
  },

  /** The account's subscriptions (operator listing and plan flags). */
  ofAccount(q: Q, accountId: number): Promise<SubscriptionRow[]> {
    return subQuery(q).where('s.account_id', '=', accountId).orderBy('s.number_id').execute();
  },
};

const numberHistoryPage = monthPage('number', (q, p) =>
  q
    .selectFrom('rental_history')
    .select([
      sql<string>`id::text`.as('_id'),
      sql<string>`'+' || full_number`.as('number'),
      'type',
      epochMsSql(sql.ref('created_at')).as('date'),
      moneySql(sql.ref('charge')).as('charge'),
      sql<string>`id::text`.as('historyId'),
      sql<string>`CASE WHEN type = ${sql.lit(constants.rentals.historyTypes.expired)} AND res_at IS NOT NULL
                        AND NOT restored THEN to_char(res_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') ELSE '' END`.as(
        'resDate',
      ),
      'plan_id as planId',
    ])
    .where('account_id', '=', p.accountId)
    .where('kind', '=', 'number')
    .where('created_at', '>=', p.from)
    .where('created_at', '<', p.to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);
