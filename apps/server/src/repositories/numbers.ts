import type { Minor } from '@numa/contract';
import { sql } from 'kysely';
import type { Q } from '../db';

/** A number held by an account (virtual_numbers). */
export interface VirtualNumber {
  id: number;
  accountId: number;
  telCode: string;
  number: string;
  fullNumber: string;
  country: string;
  tollFree: boolean;
  tollFreeVerified: boolean;
  planId: number;
  /** ISO date (YYYY-MM-DD) of the next rent. */
  paymentDate: string;
  /** Ten-thousandths of the brand's unit. */
  monthRent: Minor;
  createdAt: Date;
}

const cols = [
  'id',
  'account_id as accountId',
  'tel_code as telCode',
  'number',
  'full_number as fullNumber',
  'country',
  'toll_free as tollFree',
  'toll_free_verified as tollFreeVerified',
  'plan_id as planId',
  sql<string>`to_char(payment_date, 'YYYY-MM-DD')`.as('paymentDate'),
  'month_rent as monthRent',
  'created_at as createdAt',
] as const;

export const numbersRepo = {
  /** The account's numbers, oldest first ('me' is the first when none is chosen). */
  async ofAccount(q: Q, accountId: number): Promise<VirtualNumber[]> {
    return q
      .selectFrom('virtual_numbers')
      .select(cols)
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  },

  async byFullNumber(q: Q, fullNumber: string): Promise<VirtualNumber | null> {
    return (
      (await q
        .selectFrom('virtual_numbers')
        .select(cols)
        .where('full_number', '=', fullNumber)
        .executeTakeFirst()) ?? null
    );
  },

  /** Inserts a number; null when the number is already held (by anyone). */
  async insert(
    q: Q,
    n: {
      accountId: number;
      telCode: string;
      number: string;
      country: string;
      tollFree: boolean;
      tollFreeVerified: boolean;
      planId: number;
      paymentDate: string;
      monthRent: Minor;
    },
  ): Promise<VirtualNumber | null> {
    const row = await q
      .insertInto('virtual_numbers')
      .values({
        account_id: n.accountId,
        tel_code: n.telCode,
        number: n.number,
        full_number: n.telCode + n.number,
        country: n.country,
        toll_free: n.tollFree,
        toll_free_verified: n.tollFreeVerified,
        plan_id: n.planId,
        payment_date: n.paymentDate,
        month_rent: n.monthRent,
      })
      .onConflict((oc) => oc.column('full_number').doNothing())
      .returning(cols)
      .executeTakeFirst();
    return row ?? null;
  },

  async remove(q: Q, fullNumber: string): Promise<VirtualNumber | null> {
    return (
      (await q
        .deleteFrom('virtual_numbers')
        .where('full_number', '=', fullNumber)
        .returning(cols)
        .executeTakeFirst()) ?? null
    );
  },

  async callSettings(q: Q, accountId: number): Promise<{ forwardStatus: 0 | 1; voicemailStatus: 0 | 1 }> {
    const row = await q
      .selectFrom('call_settings')
      .select(['forward_status as forwardStatus', 'voicemail_status as voicemailStatus'])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return {
      forwardStatus: row?.forwardStatus === 1 ? 1 : 0,
      voicemailStatus: row?.voicemailStatus === 1 ? 1 : 0,
    };
  },
};
