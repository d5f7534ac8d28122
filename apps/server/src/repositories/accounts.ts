import type { BrandId } from '@numa/contract';
import type { Queryable } from '../db';

export const AccountStatus = { active: 1, suspended: 2, deleted: 3 } as const;

export interface Account {
  id: number;
  brand: BrandId;
  email: string | null;
  telCode: string | null;
  phone: string | null;
  status: number;
  /** Ten-thousandths of the brand's unit. */
  balance: number;
  canInvite: boolean;
  canSetInviter: boolean;
  createdAt: Date;
}

const columns = `id, brand, email, tel_code AS "telCode", phone, status, balance,
  can_invite AS "canInvite", can_set_inviter AS "canSetInviter", created_at AS "createdAt"`;

export type SignInAddress = { email: string } | { telCode: string; phone: string };

export const accountsRepo = {
  async byId(q: Queryable, id: number): Promise<Account | null> {
    const [row] = await q.query<Account>(`SELECT ${columns} FROM accounts WHERE id = $1`, [id]);
    return row ?? null;
  },

  async byAddress(q: Queryable, brand: BrandId, address: SignInAddress): Promise<Account | null> {
    const [row] =
      'email' in address
        ? await q.query<Account>(`SELECT ${columns} FROM accounts WHERE brand = $1 AND email = $2`, [brand, address.email])
        : await q.query<Account>(`SELECT ${columns} FROM accounts WHERE brand = $1 AND tel_code = $2 AND phone = $3`, [
            brand,
            address.telCode,
            address.phone,
          ]);
    return row ?? null;
  },

  /** Creates the account of an address, or returns the one a concurrent sign-in just created. */
  async findOrCreate(q: Queryable, brand: BrandId, address: SignInAddress): Promise<Account> {
    const inserted =
      'email' in address
        ? await q.query<Account>(
            `INSERT INTO accounts (brand, email) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING ${columns}`,
            [brand, address.email],
          )
        : await q.query<Account>(
            `INSERT INTO accounts (brand, tel_code, phone) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING ${columns}`,
            [brand, address.telCode, address.phone],
          );
    const row = inserted[0] ?? (await accountsRepo.byAddress(q, brand, address));
    if (!row) throw new Error('account neither inserted nor found');
    return row;
  },

  async setStatus(q: Queryable, id: number, status: number): Promise<void> {
    await q.query('UPDATE accounts SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
  },

  /** Locks the row for a balance change in the caller's transaction. */
  async lockBalance(q: Queryable, id: number): Promise<number | null> {
    const [row] = await q.query<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1 FOR UPDATE', [id]);
    return row ? row.balance : null;
  },

  async setBalance(q: Queryable, id: number, balance: number): Promise<void> {
    await q.query('UPDATE accounts SET balance = $2, updated_at = now() WHERE id = $1', [id, balance]);
  },
};
