import type { Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q, Tx } from '../db';
import { historyCountsRepo } from './historyCounts';

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

  async page(
    q: Q,
    p: { accountId: number; from: Date; to: Date; limit: number; offset: number },
  ): Promise<{ total: number; rows: CallRow[] }> {
    const [total, rows] = await Promise.all([
      // kept per month by the table's triggers (migration 170), not counted row by row
      historyCountsRepo.total(q, p.accountId, 'call', p.from),
      q
        .selectFrom('call_records')
        .select(cols)
        .where('account_id', '=', p.accountId)
        .where('created_at', '>=', p.from)
        .where('created_at', '<', p.to)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p.limit)
        .offset(p.offset)
        .execute(),
    ]);
    return { total, rows };
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
