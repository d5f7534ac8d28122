import type { Queryable } from '../db';

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
  monthRent: number;
  createdAt: Date;
}

const cols = `id, account_id AS "accountId", tel_code AS "telCode", number, full_number AS "fullNumber", country,
  toll_free AS "tollFree", toll_free_verified AS "tollFreeVerified", plan_id AS "planId",
  to_char(payment_date, 'YYYY-MM-DD') AS "paymentDate", month_rent AS "monthRent", created_at AS "createdAt"`;

export const numbersRepo = {
  /** The account's numbers, oldest first ('me' is the first when none is chosen). */
  async ofAccount(q: Queryable, accountId: number): Promise<VirtualNumber[]> {
    return q.query<VirtualNumber>(`SELECT ${cols} FROM virtual_numbers WHERE account_id = $1 ORDER BY id`, [
      accountId,
    ]);
  },

  async byFullNumber(q: Queryable, fullNumber: string): Promise<VirtualNumber | null> {
    const [row] = await q.query<VirtualNumber>(`SELECT ${cols} FROM virtual_numbers WHERE full_number = $1`, [
      fullNumber,
    ]);
    return row ?? null;
  },

  /** Inserts a number; null when the number is already held (by anyone). */
  async insert(
    q: Queryable,
    n: {
      accountId: number;
      telCode: string;
      number: string;
      country: string;
      tollFree: boolean;
      tollFreeVerified: boolean;
      planId: number;
      paymentDate: string;
      monthRent: number;
    },
  ): Promise<VirtualNumber | null> {
    const [row] = await q.query<VirtualNumber>(
      `INSERT INTO virtual_numbers (account_id, tel_code, number, full_number, country, toll_free, toll_free_verified,
                                    plan_id, payment_date, month_rent)
       VALUES ($1, $2, $3, $2 || $3, $4, $5, $6, $7, $8::date, $9)
       ON CONFLICT (full_number) DO NOTHING RETURNING ${cols}`,
      [
        n.accountId,
        n.telCode,
        n.number,
        n.country,
        n.tollFree,
        n.tollFreeVerified,
        n.planId,
        n.paymentDate,
        n.monthRent,
      ],
    );
    return row ?? null;
  },

  async remove(q: Queryable, fullNumber: string): Promise<VirtualNumber | null> {
    const [row] = await q.query<VirtualNumber>(
      `DELETE FROM virtual_numbers WHERE full_number = $1 RETURNING ${cols}`,
      [fullNumber],
    );
    return row ?? null;
  },

  async callSettings(
    q: Queryable,
    accountId: number,
  ): Promise<{ forwardStatus: 0 | 1; voicemailStatus: 0 | 1 }> {
    const [row] = await q.query<{ forwardStatus: number; voicemailStatus: number }>(
      `SELECT forward_status AS "forwardStatus", voicemail_status AS "voicemailStatus" FROM call_settings WHERE account_id = $1`,
      [accountId],
    );
    return {
      forwardStatus: row?.forwardStatus === 1 ? 1 : 0,
      voicemailStatus: row?.voicemailStatus === 1 ? 1 : 0,
    };
  },
};
