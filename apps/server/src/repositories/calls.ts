import { constants, type Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import { monthPage, type MonthPageValues } from './historyCounts';
import { epochMsSql, moneySql } from './jsonPage';

export interface CallRow {
  id: number;
  direction: 'in' | 'out';
  fromNumber: string;
  toNumber: string;
  duration: number;
  billingDuration: number;
  tariffId: number;
  type: string;
  charge: Minor;
  createdAt: Date;
}

const cols = [
  'id',
  'direction',
  'from_number as fromNumber',
  'to_number as toNumber',
  'duration',
  'billing_duration as billingDuration',
  'tariff_id as tariffId',
  'type',
  'charge',
  'created_at as createdAt',
] as const;

/** Call records and the forwarding / voicemail switches. */
export const callsRepo = {
  /** Inserts a call once per carrier id (null when it was recorded before). */
  async insert(
    tx: Tx,
    c: {
      accountId: number;
      direction: 'in' | 'out';
      fromNumber: string;
      toNumber: string;
      duration: number;
      billingDuration: number;
      tariffId: number;
      type: string;
      charge: Minor;
      ledgerId: number | null;
      carrierId: string;
      createdAt: Date;
    },
  ): Promise<CallRow | null> {
    const row = await tx
      .insertInto('call_records')
      .values({
        account_id: c.accountId,
        direction: c.direction,
        from_number: c.fromNumber,
        to_number: c.toNumber,
        duration: c.duration,
        billing_duration: c.billingDuration,
        tariff_id: c.tariffId,
        type: c.type,
        charge: c.charge,
        ledger_id: c.ledgerId,
        carrier_id: c.carrierId,
        created_at: c.createdAt,
      })
      .onConflict((oc) => oc.columns(['account_id', 'carrier_id']).doNothing())
      .returning(cols)
      .executeTakeFirst();
    return row ?? null;
  },

  /**
   * A page of the account's calls in [from, to), newest first, as the contract's CallRecord[] in JSON
   * text (`list`), with the month's total (kept per month by the table's triggers, migration 170).
   */
  page(q: Q, p: MonthPageValues) {
    return callPage(q, p);
  },

  /**
   * What the account's numbers allow: forwarding / voicemail when any of its plans does; a number
   * given by an operator (no subscription) allows both.
   */
  async rights(q: Q, accountId: number): Promise<{ numbers: number; forward: boolean; voicemail: boolean }> {
    const r = await q
      .selectFrom('virtual_numbers as v')
      .leftJoin('rentals as s', 's.number_id', 'v.id')
      .leftJoin('plans as p', 'p.id', 's.plan_id')
      .select([
        sql<number>`count(*)::int`.as('numbers'),
        sql<boolean>`coalesce(bool_or(p.can_forward IS NOT FALSE), false)`.as('forward'),
        sql<boolean>`coalesce(bool_or(p.can_voicemail IS NOT FALSE), false)`.as('voicemail'),
      ])
      .where('v.account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return r;
  },

  async setSettings(q: Q, accountId: number, s: { forward: 0 | 1; voicemail: 0 | 1 }): Promise<void> {
    await q
      .insertInto('call_settings')
      .values({ account_id: accountId, forward_status: s.forward, voicemail_status: s.voicemail })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({ forward_status: s.forward, voicemail_status: s.voicemail }),
      )
      .execute();
  },
};

const callPage = monthPage('call', (q, p) => {
  // the tariff's line name (constants.tariffIds: name → id; the first name of an id)
  const line = sql.join(
    Object.entries(constants.tariffIds).map(([name, id]) => sql`WHEN ${sql.lit(id)} THEN ${sql.lit(name)}`),
    sql` `,
  );
  return q
    .selectFrom('call_records')
    .select([
      sql<string>`id::text`.as('_id'),
      'direction',
      'to_number as toNumber',
      'from_number as fromNumber',
      'to_number as destNum',
      'from_number as srcNum',
      'duration',
      'billing_duration as billingDuration',
      sql<string>`CASE tariff_id ${line} ELSE '' END`.as('line'),
      'tariff_id as tariffId',
      moneySql(sql.ref('charge')).as('charge'),
      epochMsSql(sql.ref('created_at')).as('date'),
      'type',
    ])
    .where('account_id', '=', p.accountId)
    .where('created_at', '>=', p.from)
    .where('created_at', '<', p.to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset);
});
