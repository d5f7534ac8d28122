import type { BrandId } from '@numa/contract';
import type { Queryable } from '../db';
import type { CodeChannel } from './codes';

export interface VerificationRow {
  id: string;
  accountId: number;
  brand: BrandId;
  channel: CodeChannel;
  telCode: string | null;
  phone: string | null;
  email: string | null;
  createdAt: Date;
  validatedAt: Date | null;
  usedAt: Date | null;
}

const cols = `id, account_id AS "accountId", brand, channel, tel_code AS "telCode", phone, email,
  created_at AS "createdAt", validated_at AS "validatedAt", used_at AS "usedAt"`;

/** Verifications of a phone or an e-mail for an account (the `verifyid` of the verify calls). */
export const verificationsRepo = {
  async insert(
    q: Queryable,
    v: { id: string; accountId: number; brand: BrandId } & ({ telCode: string; phone: string } | { email: string }),
  ): Promise<void> {
    const byPhone = 'phone' in v;
    await q.query(
      `INSERT INTO address_verifications (id, account_id, brand, channel, tel_code, phone, email) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [v.id, v.accountId, v.brand, byPhone ? 'sms' : 'email', byPhone ? v.telCode : null, byPhone ? v.phone : null, byPhone ? null : v.email],
    );
  },

  /** The verification if it belongs to this account (another account's id reads as unknown). */
  async mine(q: Queryable, id: string, accountId: number, forUpdate = false): Promise<VerificationRow | null> {
    const [row] = await q.query<VerificationRow>(
      `SELECT ${cols} FROM address_verifications WHERE id = $1 AND account_id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
      [id, accountId],
    );
    return row ?? null;
  },

  async markValidated(q: Queryable, id: string): Promise<void> {
    await q.query(`UPDATE address_verifications SET validated_at = now() WHERE id = $1`, [id]);
  },

  /** Spends a validated verification; false when it was spent already. */
  async markUsed(q: Queryable, id: string): Promise<boolean> {
    const rows = await q.query(`UPDATE address_verifications SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id`, [id]);
    return rows.length === 1;
  },
};

/** Address changes of an account (the verify calls' last step). */
export const accountAddressRepo = {
  /** Another account of the brand holding this phone or e-mail, if any. */
  async holder(q: Queryable, brand: BrandId, address: { telCode: string; phone: string } | { email: string }): Promise<number | null> {
    const [row] =
      'email' in address
        ? await q.query<{ id: number }>(`SELECT id FROM accounts WHERE brand = $1 AND email = $2`, [brand, address.email])
        : await q.query<{ id: number }>(`SELECT id FROM accounts WHERE brand = $1 AND tel_code = $2 AND phone = $3`, [
            brand,
            address.telCode,
            address.phone,
          ]);
    return row?.id ?? null;
  },

  async lock(q: Queryable, accountId: number): Promise<{ telCode: string | null; phone: string | null; email: string | null } | null> {
    const [row] = await q.query<{ telCode: string | null; phone: string | null; email: string | null }>(
      `SELECT tel_code AS "telCode", phone, email FROM accounts WHERE id = $1 FOR UPDATE`,
      [accountId],
    );
    return row ?? null;
  },

  async setPhone(q: Queryable, accountId: number, telCode: string, phone: string): Promise<void> {
    await q.query(`UPDATE accounts SET tel_code = $2, phone = $3, updated_at = now() WHERE id = $1`, [accountId, telCode, phone]);
  },

  async setEmail(q: Queryable, accountId: number, email: string): Promise<void> {
    await q.query(`UPDATE accounts SET email = $2, updated_at = now() WHERE id = $1`, [accountId, email]);
  },
};
